import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { createRequire } from 'node:module';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { init } from '../../src/index.js';
import { fingerprint, fingerprintMany, Fingerprinter, rollingFingerprints, chunkBoundaries, Chunker, POLYNOMIAL } from '../../src/advanced.js';
import { isIrreducible } from '../../src/reference/gf2.js';
import { rabinRef, chunkEndsRef } from '../../src/reference/rabin.js';
import { rng, randomBytes } from '../helpers/random.js';

await init();
const enc = new TextEncoder();

test('the polynomial x^64 + 0xd4a41f7ee59d7dff is irreducible (Rabin test); reducible ones are caught', () => {
  assert.ok(isIrreducible((1n << 64n) | POLYNOMIAL));
  assert.ok(isIrreducible((1n << 64n) | 0x1bn), 'x^64+x^4+x^3+x+1 is a known irreducible');
  assert.not.ok(isIrreducible((1n << 64n) | 1n), 'x^64 + 1 = (x + 1)^64');
  assert.not.ok(isIrreducible((1n << 64n) | POLYNOMIAL ^ 1n), 'no constant term: divisible by x');
});

test('fingerprint equals BigInt polynomial division on random inputs', () => {
  fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => fingerprint(bytes) === rabinRef(bytes)), { numRuns: 300, seed: 1 });
});

test('pinned fingerprint vectors', () => {
  assert.is(fingerprint(''), 1n);
  assert.is(fingerprint('a'), 0x161n);
  assert.is(fingerprint('resemble'), rabinRef(enc.encode('resemble')));
  // values pinned at version 1: changing them breaks every saved sketch
  assert.is(fingerprint('The quick brown fox jumps over the lazy dog').toString(16), rabinRef(enc.encode('The quick brown fox jumps over the lazy dog')).toString(16));
  assert.is(fingerprint('The quick brown fox jumps over the lazy dog'), 0x5a08c642e66cbc27n);
});

test('fingerprintMany equals fingerprint one by one, across batch boundaries', () => {
  const r = rng(7);
  const docs = Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? `text ${i} é中` : randomBytes(r, Math.floor(r() * 64 * 1024))));
  const many = fingerprintMany(docs);
  docs.forEach((d, i) => assert.is(many[i], fingerprint(d), `doc ${i}`));
});

test('streaming Fingerprinter equals one-shot at any split point', () => {
  fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), fc.array(fc.nat(200), { maxLength: 5 }), (bytes, cuts) => {
    const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
    const f = new Fingerprinter();
    let prev = 0;
    for (const p of [...points, bytes.length]) { f.update(bytes.subarray(prev, p)); prev = p; }
    return f.digest() === fingerprint(bytes);
  }), { numRuns: 200, seed: 2 });
});

test('rolling fingerprints equal one-shot fingerprints of each window', () => {
  fc.assert(fc.property(fc.uint8Array({ minLength: 1, maxLength: 120 }), fc.integer({ min: 1, max: 40 }), (bytes, n) => {
    const roll = rollingFingerprints(bytes, n);
    if (bytes.length < n) return roll.length === 0;
    if (roll.length !== bytes.length - n + 1) return false;
    for (let i = 0; i < roll.length; i++) if (roll[i] !== rabinRef(bytes.subarray(i, i + n))) return false;
    return true;
  }), { numRuns: 150, seed: 3 });
});

test('chunk boundaries equal the window-by-window reference', () => {
  const r = rng(11);
  for (let t = 0; t < 6; t++) {
    const bytes = randomBytes(r, 1500 + Math.floor(r() * 1500));
    const got = Array.from(chunkBoundaries(bytes, { window: 16, averageSize: 64, minSize: 16, maxSize: 256 }));
    assert.equal(got, chunkEndsRef(bytes, 16, 63n, 16, 256));
  }
});

test('streaming Chunker equals one-shot at random split points (windows across chunk boundaries)', () => {
  const r = rng(12);
  const bytes = randomBytes(r, 200_000);
  const opts = { window: 48, averageSize: 1024, minSize: 256, maxSize: 8192 };
  const whole = Array.from(chunkBoundaries(bytes, opts));
  assert.ok(whole.length > 50, `expected many chunks, got ${whole.length}`);
  for (let t = 0; t < 5; t++) {
    const c = new Chunker(opts);
    const got: number[] = [];
    let at = 0;
    while (at < bytes.length) {
      const len = Math.floor(r() * (t % 2 ? 100 : 20000)) + 1;
      got.push(...c.update(bytes.subarray(at, at + len)));
      at += len;
    }
    got.push(...c.finish());
    assert.equal(got, whole);
  }
});

test('chunking across 64 KiB blocks and lanes equals the size rules applied to rolling fingerprints', () => {
  const r = rng(13);
  const bytes = randomBytes(r, 400_000);
  const [window, mask, minSize, maxSize] = [32, 255n, 64, 2048];
  const fps = rollingFingerprints(bytes, window);   // fps[i] ends at byte i + window − 1
  const want: number[] = [];
  let last = 0;
  for (let e = 0; e < bytes.length; e++) {
    const size = e + 1 - last;
    const hit = e + 1 >= window && (fps[e + 1 - window] & mask) === 0n;
    if ((size >= minSize && hit) || size >= maxSize) { want.push(e + 1); last = e + 1; }
  }
  if (last < bytes.length) want.push(bytes.length);
  const opts = { window, averageSize: 256, minSize, maxSize };
  assert.equal(Array.from(chunkBoundaries(bytes, opts)), want);
  const c = new Chunker(opts);
  const got: number[] = [];
  for (let at = 0; at < bytes.length; at += 70_001) got.push(...c.update(bytes.subarray(at, at + 70_001)));
  got.push(...c.finish());
  assert.equal(got, want);
});

test("boundaries 'rabin-wasm' cut where rabin-wasm cuts (its parameters; random bytes and real pages)", async () => {
  const require = createRequire(import.meta.url);
  const { Rabin } = require('rabin-wasm') as { Rabin: new (m: unknown, bits: number, min: number, max: number, window: number) => { fingerprint(b: Uint8Array): ArrayLike<number> } };
  // rabin-wasm fills its window table once per module instance: a fresh instance per window size
  const instance = require('rabin-wasm/dist/rabin-wasm.node.js') as () => Promise<unknown>;
  const r = rng(14);
  const dir = join(import.meta.dirname, '..', '..', 'sample', 'docs.example.com', 'sqlite', 'session');
  const page = Buffer.concat(readdirSync(dir).filter((f) => f.endsWith('.html')).sort().map((f) => readFileSync(join(dir, f))));
  const inputs = [randomBytes(r, 300_000), new Uint8Array(page), new Uint8Array(40_000)];
  for (const [bits, min, max, window] of [[12, 8192, 32768, 64], [10, 2048, 8192, 48], [8, 300, 2000, 64]]) {
    const module = await instance();
    for (const buf of inputs) {
      const theirs = Array.from(new Rabin(module, bits, min, max, window).fingerprint(buf));
      const ends = Array.from(chunkBoundaries(buf, { boundaries: 'rabin-wasm', window, averageSize: 2 ** bits, minSize: min, maxSize: max }));
      const ours = ends.map((e, i) => e - (i ? ends[i - 1] : 0));
      // rabin-wasm reports completed chunks only; ours end with the rest of the input
      assert.ok(theirs.length > 3, `${buf.length} bytes, ${theirs.length} chunks`);
      assert.equal(ours.slice(0, theirs.length), theirs, `bits ${bits} min ${min}`);
      assert.ok(ours.length === theirs.length + 1 || (ours.length === theirs.length && ends.at(-1) === buf.length));
    }
  }
  assert.throws(() => chunkBoundaries(new Uint8Array(10), { boundaries: 'rabin-wasm', window: 64, minSize: 32 }), /at least the window \(64\)/);
});

test('chunk options are validated', () => {
  assert.throws(() => chunkBoundaries(new Uint8Array(10), { averageSize: 1000 }), /power of two/);
  assert.throws(() => chunkBoundaries(new Uint8Array(10), { window: 0 }), /expected integer 1\.\.4096 for window, got 0/);
  assert.throws(() => chunkBoundaries(new Uint8Array(10), { size: 3 } as never), /unknown option "size"/);
});

test.run();
