// Summarise trace files from Node with the npm package:
//
//   node summarize.mjs trace.json [more.jsonl …]
//
// Prints the format, counts and every error diagnostic; exits 1 when a file
// has errors or is no trace.
import { readFileSync } from 'node:fs';
import { parseTrace } from 'agent-trace-viewer';

let status = 0;
for (const file of process.argv.slice(2)) {
  let trace;
  try {
    trace = parseTrace(readFileSync(file));
  } catch (e) {
    console.log(`${file}: ${e.message}`);
    status = 1;
    continue;
  }
  const stats = trace.stats();
  console.log(`${file}: ${trace.format}, ${stats.runs} runs, ${stats.events} events, ${stats.toolCalls} tool calls, ${stats.errors} errors, ${stats.warnings} warnings`);
  for (const d of trace.diagnostics()) {
    if (d.severity === 'error') console.log(`  ${d.line}:${d.column} ${d.code}: ${d.message} (at ${d.path})`);
  }
  if (stats.errors > 0) status = 1;
  trace.free();
}
process.exit(status);
