// Checks what wasm-opt's --low-memory-unused assumes (scripts/build.sh): no data
// segment in the low 1 KB of memory, and the stack pointer starting above it (the
// stack-first layout rust-lld gives), so only a nearly overflowed stack reaches it.
// Run on the module before wasm-opt; exits non-zero and says why otherwise.
import { readFileSync } from 'node:fs';

const LOW = 1024;
const bytes = readFileSync(process.argv[2]);
let pos = 8;
const u = () => {
  let r = 0, s = 0, b;
  do { b = bytes[pos++]; r += (b & 0x7f) * 2 ** s; s += 7; } while (b & 0x80);
  return r;
};
const i32const = () => {
  if (bytes[pos++] !== 0x41) throw new Error('expected i32.const in a constant expression');
  let r = 0, s = 0, b;
  do { b = bytes[pos++]; r |= (b & 0x7f) << s; s += 7; } while (b & 0x80);
  if (s < 32 && (b & 0x40)) r |= -1 << s;
  if (bytes[pos++] !== 0x0b) throw new Error('expected end of a constant expression');
  return r >>> 0;
};
let stack = null, lowest = Infinity;
while (pos < bytes.length) {
  const id = bytes[pos++];
  const size = u();
  const end = pos + size;
  if (id === 6) {
    // The first global is __stack_pointer.
    u();
    pos += 2;
    stack = i32const();
  } else if (id === 11) {
    for (let n = u(); n > 0; n--) {
      const flag = u();
      if (flag === 2) u();
      if (flag !== 1) lowest = Math.min(lowest, i32const());
      const size = u();
      pos += size;
    }
  }
  pos = end;
}
if (stack === null || stack < LOW || lowest < LOW || (lowest < stack)) {
  console.error(`${process.argv[2]}: --low-memory-unused needs the stack first and no data below ${LOW}; stack pointer ${stack}, lowest data ${lowest}`);
  process.exit(1);
}
console.log(`low memory unused: stack from ${stack} down, data from ${lowest}`);
