// The TypeScript types of the rows (`EventView`, `RowView`: discriminated
// unions on `kind`) against real rows: every event of every fixture of every
// format (and the corpus) is checked with the declarations read from the
// package's own .d.ts by the TypeScript compiler. Per kind, each required
// field is present, no field is undeclared, and each value has its declared
// type, nested objects included; and every kind and every declared field
// shows up in the data somewhere. So the types cannot drift from the data.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { parseTrace, parseFiles, formats as registry } from 'agent-trace-viewer';

const require = createRequire(import.meta.url);
const ts = require('typescript');

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const corpus = process.env.ATV_CORPUS ?? join(root, '..', 'shared', 'corpus');

// The .d.ts Node resolves for the package (the `node` export condition).
const dts = fileURLToPath(new URL(import.meta.resolve('agent-trace-viewer')).href.replace(/\.js$/, '.d.ts'));
const program = ts.createProgram([dts], { strict: true, noEmit: true, types: [] });
const checker = program.getTypeChecker();
const source = program.getSourceFile(dts);

function declared(name) {
  const module = checker.getSymbolAtLocation(source);
  const symbol = checker.getExportsOfModule(module).find((s) => s.name === name);
  assert.ok(symbol, `${name} is not exported by ${dts}`);
  return checker.getDeclaredTypeOfSymbol(symbol);
}

const F = ts.TypeFlags;
const show = (t) => checker.typeToString(t);
const isOptional = (p) => (p.flags & ts.SymbolFlags.Optional) !== 0;
const propType = (p) => checker.getTypeOfSymbolAtLocation(p, source);

/** Why `value` is not of type `type` ([] when it is). Objects must have exactly the declared keys. */
function mismatches(value, type, path) {
  const f = type.flags;
  if (f & (F.Any | F.Unknown)) return [];
  if (type.isUnion()) {
    const members = type.types.filter((t) => !(t.flags & F.Undefined));
    if (members.some((t) => mismatches(value, t, path).length === 0)) return [];
    if (members.length === 1) return mismatches(value, members[0], path);
    return [`${path}: ${JSON.stringify(value)?.slice(0, 80)} is none of ${show(type)}`];
  }
  const fail = [`${path}: ${JSON.stringify(value)?.slice(0, 80)} is not ${show(type)}`];
  if (f & F.StringLiteral) return value === type.value ? [] : fail;
  if (f & F.NumberLiteral) return value === type.value ? [] : fail;
  if (f & F.BooleanLiteral) return value === (type.intrinsicName === 'true') ? [] : fail;
  if (f & F.String) return typeof value === 'string' ? [] : fail;
  if (f & F.Number) return typeof value === 'number' ? [] : fail;
  if (f & F.Boolean) return typeof value === 'boolean' ? [] : fail;
  if (f & F.Null) return value === null ? [] : fail;
  if (f & F.Object) {
    if (checker.isTupleType(type)) {
      const elements = checker.getTypeArguments(type);
      if (!Array.isArray(value) || value.length !== elements.length) return fail;
      return value.flatMap((v, i) => mismatches(v, elements[i], `${path}[${i}]`));
    }
    if (checker.isArrayType(type)) {
      if (!Array.isArray(value)) return fail;
      const [element] = checker.getTypeArguments(type);
      return value.flatMap((v, i) => mismatches(v, element, `${path}[${i}]`));
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return fail;
    const index = checker.getIndexTypeOfType(type, ts.IndexKind.String);
    if (index) return Object.entries(value).flatMap(([k, v]) => mismatches(v, index, `${path}.${k}`));
    return objectMismatches(value, type, path);
  }
  return [`${path}: the test cannot check ${show(type)}`];
}

function objectMismatches(value, type, path) {
  const out = [];
  const props = checker.getPropertiesOfType(type);
  const names = new Set(props.map((p) => p.name));
  for (const p of props) {
    if (!(p.name in value)) {
      if (!isOptional(p)) out.push(`${path}: required field ${p.name} is missing`);
      continue;
    }
    out.push(...mismatches(value[p.name], propType(p), `${path}.${p.name}`));
  }
  for (const k of Object.keys(value)) {
    if (!names.has(k)) out.push(`${path}: field ${k} is not declared in ${show(type)}`);
  }
  return out;
}

/** `kind` literal → the union member declaring it, with its fields. */
function membersByKind(unionName) {
  const union = declared(unionName);
  assert.ok(union.isUnion(), `${unionName} is a union`);
  const byKind = new Map();
  for (const member of union.types) {
    const kind = member.getProperty('kind');
    assert.ok(kind && !isOptional(kind), `${show(member)} has a required kind`);
    const kt = propType(kind);
    for (const lit of kt.isUnion() ? kt.types : [kt]) {
      assert.ok(lit.flags & F.StringLiteral, `${show(member)}.kind is string literals`);
      assert.ok(!byKind.has(lit.value), `kind ${lit.value} is declared twice`);
      byKind.set(lit.value, member);
    }
  }
  return byKind;
}

/** Inputs: every fixture of every registered format, the OpenHands conversation folder, the corpus. */
function traces() {
  const out = [];
  const files = (dir) =>
    existsSync(dir)
      ? readdirSync(dir).map((n) => join(dir, n)).filter((p) => statSync(p).isFile()).sort()
      : [];
  for (const format of registry()) {
    for (const path of files(join(root, 'tests', 'fixtures', format))) out.push({ name: path, open: () => parseTrace(readFileSync(path), {}) });
  }
  const conversation = join(root, 'tests', 'fixtures', 'openhands', 'conversation', 'events');
  out.push({
    name: conversation,
    open: () => parseFiles(files(conversation).map((p) => ({ name: p.split('/').pop(), bytes: readFileSync(p) })), {}),
  });
  assert.ok(existsSync(corpus), `CORPUS MISSING: ${corpus} (set ATV_CORPUS)`);
  for (const dir of readdirSync(corpus).map((n) => join(corpus, n)).filter((p) => statSync(p).isDirectory())) {
    for (const path of files(dir)) out.push({ name: path, open: () => parseTrace(readFileSync(path), {}) });
  }
  return out;
}

function checkRows(unionName, fetch) {
  const byKind = membersByKind(unionName);
  const seenKinds = new Map();
  const seenFields = new Map([...byKind.keys()].map((k) => [k, new Set()]));
  const failures = [];
  const formats = new Set();
  let rows = 0;
  for (const { name, open } of traces()) {
    let trace;
    try {
      trace = open();
    } catch {
      continue; // not a trace (or a format we do not read): no rows to check
    }
    try {
      formats.add(trace.format);
      for (const row of fetch(trace)) {
        rows += 1;
        const member = byKind.get(row.kind);
        if (!member) {
          failures.push(`${name} #${row.index}: kind ${JSON.stringify(row.kind)} is not declared in ${unionName}`);
          continue;
        }
        seenKinds.set(row.kind, (seenKinds.get(row.kind) ?? 0) + 1);
        for (const k of Object.keys(row)) seenFields.get(row.kind).add(k);
        const why = objectMismatches(row, member, `${name.replace(root + '/', '')} #${row.index} (${row.kind})`);
        if (why.length && failures.length < 40) failures.push(...why);
      }
    } finally {
      trace.free();
    }
  }
  assert.deepEqual(failures, [], `${unionName}: rows that do not match their declared kind`);
  // Every format of the registry was checked (its fixtures are in tests/fixtures/<id>/).
  assert.deepEqual([...formats].sort(), [...registry()].sort());
  assert.ok(rows > 1000, `${rows} rows`);
  // Nothing declared that the data never has: every kind occurs, and every field of each kind.
  assert.deepEqual([...byKind.keys()].filter((k) => !seenKinds.has(k)), [], `${unionName}: kinds never seen`);
  const unseen = [];
  for (const [kind, member] of byKind) {
    for (const p of checker.getPropertiesOfType(member)) {
      if (!seenFields.get(kind).has(p.name)) unseen.push(`${kind}.${p.name}`);
    }
  }
  return { unseen, seenKinds };
}

test('EventView: every event of every format has exactly the fields its kind declares', () => {
  const { unseen, seenKinds } = checkRows('EventView', (t) => t.events(0, t.eventCount));
  assert.deepEqual(unseen, [], 'declared fields no event has');
  assert.equal(seenKinds.size, 8);
});

test('RowView: every list row of every format has exactly the fields its kind declares', () => {
  const { unseen } = checkRows('RowView', (t) => t.rows(0, t.eventCount));
  assert.deepEqual(unseen, [], 'declared fields no row has');
});

test('the checker itself rejects rows that break the declarations', () => {
  // So a passing run above means something: wrong rows are caught.
  const events = membersByKind('EventView');
  const trace = parseTrace(readFileSync(join(root, 'tests/fixtures/openai/tool_output_id_matching.json')), {});
  try {
    const all = trace.events(0, trace.eventCount);
    const message = all.find((e) => e.kind === 'message' && e.toolCalls);
    const result = all.find((e) => e.kind === 'tool-result');
    assert.ok(message && result);
    const check = (row) => objectMismatches(row, events.get(row.kind), 'row');
    assert.deepEqual(check(message), []);
    assert.deepEqual(check(result), []);
    assert.match(check({ ...message, status: 'error' }).join(), /field status is not declared/);
    assert.match(check({ ...result, status: undefined, kind: 'tool-result' }).join(), /status/);
    const { status, ...noStatus } = result;
    void status;
    assert.match(check(noStatus).join(), /required field status is missing/);
    assert.match(check({ ...result, status: 'failed' }).join(), /status/);
    assert.match(check({ ...result, role: 'user' }).join(), /role/);
    assert.match(check({ ...message, toolCalls: [{ ...message.toolCalls[0], result: 'x' }] }).join(), /toolCalls\[0\]\.result/);
    assert.match(check({ ...message, toolCalls: [{ ...message.toolCalls[0], extra: 1 }] }).join(), /field extra is not declared/);
    const call = { kind: 'tool-call', ...message, toolCalls: [message.toolCalls[0], message.toolCalls[0]] };
    delete call.role;
    call.kind = 'tool-call';
    assert.match(objectMismatches(call, events.get('tool-call'), 'row').join(), /toolCalls/);
  } finally {
    trace.free();
  }
});
