// The readers' byte kernels (assembly/json.ts) in both builds, their TypeScript loops and the slow
// references (JSON.parse + TextEncoder; a plain loop) on the same random inputs, answer for answer:
// JSON string literals with every escape, surrogates paired and lone, non-ASCII and control bytes,
// escapes and quotes on every offset of a 16-byte block, strings cut before their end; and control
// byte counts with and without NUL bytes, at every length around the block sizes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init } from '../../src/index.js';
import { kernelBuild } from '../../src/advanced.js';
import { useBuild } from '../../src/wasm/loader.js';
import { controlBytes } from '../../src/io/byte-kernels.js';
import { jsonString, readStringTs } from '../../src/io/json-string.js';
import { looksBinary } from '../../src/io/sniff.js';
import { controlBytesRef, jsonStringRef } from '../../src/reference/json.js';
import { randomBytes, rng } from '../helpers/random.js';

await init();
const utf8 = new TextEncoder();

const PIECES = ['\\n', '\\t', '\\r', '\\b', '\\f', '\\/', '\\\\', '\\"', '\\u00e9', '\\u6771', '\\ud83d\\ude00', '\\ud800', '\\udc00x',
  '\\ud83d\\u0041', '\\uDBFF\\uDFFF', 'é', '東京', '😀', '\u00a0', '<p class=\\"a\\">'];
const BAD = ['\t', '\\x', '\\u12', '\u0001', '\\', '\\u00g0', '\u001f'];

/** A random string literal's body, closed by its quote and followed by more of the line; now and then invalid or cut. */
function literal(r: () => number): Uint8Array {
  const parts: string[] = [];
  const n = Math.floor(r() * (r() < 0.2 ? 400 : 30));
  for (let i = 0; i < n; i++) {
    const x = r();
    if (x < 0.35) parts.push(PIECES[Math.floor(r() * PIECES.length)]);
    else parts.push('abcdefghijklmnopqrstuvwxyz0123456789 <>=&;'.slice(0, 1 + Math.floor(r() * 40)));
  }
  if (r() < 0.1) parts.splice(Math.floor(r() * (parts.length + 1)), 0, BAD[Math.floor(r() * BAD.length)]);
  let body = parts.join('');
  const y = r();
  if (y < 0.05) return utf8.encode(body); // no closing quote
  if (y < 0.08) body = body.slice(0, -1); // maybe an escape cut in two
  return utf8.encode(body + '", "next": 1}');
}

function both<T>(f: () => T): { simd: T; scalar: T } {
  useBuild('simd'); assert.is(kernelBuild(), 'simd');
  const simd = f();
  useBuild('scalar'); assert.is(kernelBuild(), 'scalar');
  const scalar = f();
  useBuild('simd');
  return { simd, scalar };
}

test('JSON strings: both kernel builds, the TypeScript loop and JSON.parse agree', () => {
  const r = rng(9001);
  const inputs: Uint8Array[] = [];
  for (let i = 0; i < 3000; i++) {
    // a prefix of 0..40 bytes puts the literal at every offset of a block
    const prefix = utf8.encode('{"html":"'.padStart(9 + Math.floor(r() * 32), ' '));
    const body = literal(r);
    const line = new Uint8Array(prefix.length + body.length);
    line.set(prefix); line.set(body, prefix.length);
    inputs.push(line);
  }
  // a special byte on every offset of a 16-byte block, and plain runs of every length
  for (let k = 0; k < 48; k++) {
    for (const s of ['"', '\\n"', '\\"x"', '\u0002"', 'é"']) inputs.push(utf8.encode('{"html":"' + 'a'.repeat(k) + s + 'b'.repeat(300) + '"}'));
  }
  const run = (kernel: boolean) => inputs.map((b) => {
    const p = b.indexOf(0x22, b.indexOf(0x3a)) + 1;
    const got = jsonString(b, p, kernel);
    return got ? [got[0], Array.from(got[1])] : null;
  });
  const ref = inputs.map((b) => {
    const p = b.indexOf(0x22, b.indexOf(0x3a)) + 1;
    const got = jsonStringRef(b, p);
    return got ? [got[0], Array.from(got[1])] : null;
  });
  const valid = ref.filter((x) => x !== null).length;
  assert.ok(valid > 2000 && valid < inputs.length - 200, `${valid} valid of ${inputs.length}`);
  const kernels = both(() => run(true));
  const ts = run(false);
  for (let i = 0; i < inputs.length; i++) {
    const text = new TextDecoder().decode(inputs[i]).slice(0, 200);
    assert.equal(ts[i], ref[i], `TypeScript: ${text}`);
    assert.equal(kernels.simd[i], ref[i], `simd: ${text}`);
    assert.equal(kernels.scalar[i], ref[i], `scalar: ${text}`);
  }
  // the kernel path was taken for long strings (the rest of the line is long), the TypeScript one for short
  assert.ok(inputs.filter((b) => b.length > 600).length > 100);
});

test('readStringTs without an output only checks the string', () => {
  const b = utf8.encode('{"k":"a\\u00e9\\"b", "x": 1}');
  assert.equal(readStringTs(b, 6), [16, 5]);
  assert.is(readStringTs(utf8.encode('{"k":"a\tb"}'), 6), undefined);
});

test('control bytes: both kernel builds, the TypeScript loop and the plain loop agree; looksBinary follows', () => {
  const r = rng(9002);
  const inputs: Uint8Array[] = [];
  for (let n = 0; n < 80; n++) {
    const text = utf8.encode('plain text, no controls at all; '.repeat(4)).subarray(0, n);
    inputs.push(text);
    for (const c of [0, 1, 9, 10, 12, 13, 27, 31, 0x20]) {
      for (const at of [0, Math.floor(n / 2), n - 1]) {
        if (n === 0) continue;
        const b = new Uint8Array(text); b[at] = c; inputs.push(b);
      }
    }
  }
  for (let i = 0; i < 300; i++) {
    const n = Math.floor(r() * 5000);
    const b = randomBytes(r, n);
    // mostly printable, with a few controls (and now and then a NUL)
    for (let k = 0; k < n; k++) b[k] = r() < 0.97 ? 0x20 + (b[k] % 0x60) : r() < 0.05 ? 0 : b[k] % 0x20;
    inputs.push(b);
  }
  const ref = inputs.map(controlBytesRef);
  assert.ok(ref.some((x) => x < 0) && ref.some((x) => x > 0) && ref.some((x) => x === 0));
  const kernels = both(() => inputs.map((b) => controlBytes(b, true)));
  assert.equal(kernels.simd, ref);
  assert.equal(kernels.scalar, ref);
  assert.equal(inputs.map((b) => controlBytes(b, false)), ref);
  // looksBinary: a NUL in the first 64 KiB; past it, none is looked at
  const page = new Uint8Array(70000).fill(0x61);
  assert.is(looksBinary(page), false);
  page[65535] = 0; assert.is(looksBinary(page), true);
  page[65535] = 0x61; page[65536] = 0; assert.is(looksBinary(page), false);
});

test.run();
