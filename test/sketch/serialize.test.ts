import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, sketchMany, ResembleError, type SketchOptions } from '../../src/index.js';
import { serializeSketchSet, deserializeSketchSet } from '../../src/advanced.js';
import { rng, randomWords } from '../helpers/random.js';

await init();
const r = rng(3);
const docs = Array.from({ length: 40 }, (_, i) => randomWords(r, i * 7, 100).join(' '));

for (const opts of [{}, { kind: 'mod', m: 5 }, { kind: 'adaptive' }, { k: 8, superShingle: 3 }, { unit: 'char', w: 5, seed: 99n }] as SketchOptions[]) {
  test(`round trip ${JSON.stringify(opts, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v))}`, () => {
    const set = sketchMany(docs, opts);
    const bytes = serializeSketchSet(set);
    const back = deserializeSketchSet(bytes, opts);
    assert.equal(back.params, set.params);
    for (const key of ['values', 'offsets', 'cardinality', 'tokens', 'modulusLog2', 'rawFp', 'lexicalFp', 'shingleFp', 'signature'] as const) {
      assert.equal(back[key], set[key], key);
    }
    assert.equal(back.superShingles, set.superShingles);
    assert.equal(serializeSketchSet(back), bytes, 'stable bytes');
    // an unaligned copy reads the same
    const shifted = new Uint8Array(bytes.length + 1).subarray(1);
    shifted.set(bytes);
    assert.equal(deserializeSketchSet(shifted).values, set.values);
  });
}

function code(f: () => unknown): string {
  try { f(); } catch (e) { return `${(e as ResembleError).code}: ${(e as Error).message}`; }
  return 'no error';
}

test('wrong magic, version, polynomial, parameters and truncation are rejected with clear errors', () => {
  const bytes = serializeSketchSet(sketchMany(docs));
  assert.match(code(() => deserializeSketchSet(new Uint8Array(10))), /E_FORMAT: .*shorter than the 64-byte header/);
  const badMagic = bytes.slice(); badMagic[0] ^= 1;
  assert.match(code(() => deserializeSketchSet(badMagic)), /E_FORMAT: not a resemble sketch file/);
  const badVersion = bytes.slice(); badVersion[4] = 9;
  assert.match(code(() => deserializeSketchSet(badVersion)), /E_FORMAT: sketch format version 9 is not supported/);
  const badPoly = bytes.slice(); badPoly[8] ^= 1;
  assert.match(code(() => deserializeSketchSet(badPoly)), /E_PARAMS: .*polynomial/);
  assert.match(code(() => deserializeSketchSet(bytes, { w: 10 })), /E_PARAMS: sketches made with different parameters: w 8 ≠ 10/);
  assert.match(code(() => deserializeSketchSet(bytes.subarray(0, bytes.length - 9))), /E_FORMAT: truncated/);
});

test('the header layout is pinned (format version 1)', () => {
  const bytes = serializeSketchSet(sketchMany(['a b c d e f g h i j'], { s: 4, w: 2, seed: 7n }));
  const dv = new DataView(bytes.buffer);
  assert.is(String.fromCharCode(...bytes.subarray(0, 4)), 'RSKS');
  assert.is(dv.getUint16(4, true), 1);
  assert.is(dv.getBigUint64(8, true), 0xd4a41f7ee59d7dffn);
  assert.is(dv.getBigUint64(16, true), 7n);
  assert.equal([bytes[24], bytes[25], bytes[26], bytes[27]], [2, 0, 1, 0]);
  assert.is(dv.getUint32(28, true), 4);
  assert.is(dv.getUint32(44, true), 1);
  assert.is(dv.getBigUint64(48, true), 4n);
});

test.run();
