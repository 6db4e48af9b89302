import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, sketch } from '../../src/index.js';
import { shingleValues } from '../../src/advanced.js';
import { shingleValuesRef } from '../../src/reference/shingles.js';
import { docs } from './documents.js';

await init();

test('shingle values equal the reference (word and char units, w = 1..12, seeds)', () => {
  const all = docs(1, 45);
  for (const [i, d] of all.entries()) {
    const w = 1 + (i % 12);
    const seed = BigInt(i) * 0x9e3779b97f4a7c15n % (1n << 64n);
    assert.equal(Array.from(shingleValues(d, { w, seed })), shingleValuesRef(d, { w, seed }), `doc ${i} word w=${w}`);
    if (d.length < 3000) assert.equal(Array.from(shingleValues(d, { w, unit: 'char', seed })), shingleValuesRef(d, { w, unit: 'char', seed }), `doc ${i} char`);
  }
});

test('documents shorter than w still get one shingle; an empty document too', () => {
  assert.is(shingleValues('', { w: 4 }).length, 1);
  assert.is(shingleValues('a b', { w: 4 }).length, 1);
  assert.is(sketch('').values.length, 1);
  assert.is(sketch('a b c').values.length, 1);
  assert.is.not(sketch('a b').values[0], sketch('a b c').values[0]);
});

test.run();
