import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, sketchMany } from '../../src/index.js';
import { superShingles } from '../../src/advanced.js';
import { superShinglesRef } from '../../src/reference/supershingles.js';
import { docs } from './documents.js';

await init();

test('super-shingles equal shingling the sorted sketch', () => {
  const all = docs(5, 18);
  const set = sketchMany(all, { s: 32, superShingle: 3 });
  const ss = set.superShingles!;
  all.forEach((_, i) => {
    const row = Array.from(set.get(i).values);
    assert.equal(Array.from(ss.values.subarray(ss.offsets[i], ss.offsets[i + 1])), superShinglesRef(row, 3), `doc ${i}`);
  });
  assert.equal(superShingles(set, 3).values, ss.values);
});

test.run();
