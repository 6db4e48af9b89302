import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, sketch, sketchMany, ResembleError } from '../../src/index.js';
import { canonicalize, fingerprint } from '../../src/advanced.js';
import { shingleValuesRef } from '../../src/reference/shingles.js';
import { minSRef } from '../../src/reference/sketch.js';
import { rng, randomBytes } from '../helpers/random.js';

await init();

function error(f: () => unknown): ResembleError {
  try { f(); } catch (e) { return e as ResembleError; }
  throw new Error('expected an error');
}

test('empty and whitespace-only documents get the one empty shingle, equal to each other', () => {
  const set = sketchMany(['', '   \n\t  ', '<p></p><!-- -->', '&nbsp;']);
  for (let i = 0; i < 4; i++) assert.equal(set.get(i).values, set.get(0).values, `doc ${i}`);
  assert.is(set.get(0).values.length, 1);
  assert.is(set.tokens[1], 0);
});

test('binary blobs and invalid UTF-8 never trap and match the reference', () => {
  const r = rng(5);
  for (let t = 0; t < 20; t++) {
    const blob = randomBytes(r, 2000);
    assert.equal(Array.from(sketch(blob, { s: 32 }).values), minSRef(shingleValuesRef(blob), 32));
  }
  const invalid = Uint8Array.from([0x66, 0x6f, 0x80, 0x6f, 0xc3, 0x28, 0xe2, 0x82, 0x20, 0xf0, 0x9f, 0x98, 0x20, 0xed, 0xa0, 0x80, 0x61]);
  assert.is(canonicalize(invalid), 'fo o a');
});

test('a document of one repeated word has one distinct shingle', () => {
  const s = sketch('spam '.repeat(100_000));
  assert.is(s.values.length, 1);
  assert.is(s.cardinality, 1);
  assert.is(s.tokens, 100_000);
});

test('a 100 MB document sketches, and equals its bytes sketched as a string', () => {
  const unit = new TextEncoder().encode('<div class="x">lorem ipsum dolor sit amet, consectetur adipiscing elit 0123</div>\n');
  const big = new Uint8Array(100 * 1024 * 1024);
  for (let at = 0; at < big.length; at += unit.length) big.set(unit.subarray(0, Math.min(unit.length, big.length - at)), at);
  for (let i = 0; i < big.length; i += 4099) big[i] = 0x61 + (i % 26);   // make it less repetitive
  const s = sketch(big);
  assert.is(s.values.length, 128);
  assert.ok(s.tokens > 10_000_000, `tokens ${s.tokens}`);
  const mod = sketchMany([big.subarray(0, 10 << 20)], { kind: 'adaptive' }).get(0);   // MOD keeps every shingle of a document in scratch: 10 MB is enough here
  assert.ok(mod.values.length > 10 && mod.values.length < 200, `adaptive size ${mod.values.length}`);
  assert.is(fingerprint(big), fingerprint(big.slice()));
});

test('a bad document is reported by index and skipped; the others are sketched', () => {
  const set = sketchMany(['a b c d', null as never, 'e f g h', 7 as never, 'i j k l']);
  assert.equal(set.errors.map((e) => e.index), [1, 3]);
  assert.match(set.errors[0].message, /document 1: expected a string or Uint8Array, got null/);
  assert.is(set.get(1).values.length, 0);
  assert.is(set.get(3).values.length, 0);
  assert.is(set.rawFp[1], 0n);
  assert.equal(set.get(2).values, sketch('e f g h').values);
  assert.equal(set.get(4).values, sketch('i j k l').values);
});

test('options are validated with coded errors before any work', () => {
  assert.is(error(() => sketch('x', { w: 0 })).code, 'E_OPTION');
  assert.is(error(() => sketch('x', { w: 0 })).message, 'expected integer 1..64 for w, got 0');
  assert.is(error(() => sketch('x', { s: 5000 })).message, 'expected integer 1..4096 for s, got 5000');
  assert.is(error(() => sketch('x', { kind: 'mod', s: 10 })).message, "expected no s with kind 'mod' (s sizes MIN_s sketches) for s, got 10");
  assert.is(error(() => sketch('x', { kind: 'lsh' as never })).message, 'expected one of min|mod|adaptive for kind, got "lsh"');
  assert.is(error(() => sketch('x', { seed: 5 as never })).message, 'expected bigint 0..2^64−1 for seed, got 5');
  assert.match(error(() => sketch('x', { shingle: 3 } as never)).message, /unknown option "shingle" for sketch/);
  assert.is(error(() => fingerprint(undefined as never)).code, 'E_INPUT');
});

test.run();
