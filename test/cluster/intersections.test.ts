// intersectionCounts (many pairs on the MIN_s kernel) and intersectionCount (one pair in
// TypeScript) against a slow reference (a Set of BigInts) on random ascending u64 sets: values
// with the high bit set (unsigned order), empty sets, one set in many pairs, a set paired with
// itself, disjoint and nested sets, and the kernels not initialized.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init } from '../../src/index.js';
import { intersectionCount, intersectionCounts } from '../../src/cluster/exact-pairs.js';
import { mulberry32 } from '../../src/random.js';

const rand = mulberry32(11);
const u64 = () => (BigInt(Math.floor(rand() * 2 ** 32)) << 32n) | BigInt(Math.floor(rand() * 2 ** 32));

function randomSet(n: number, pool: bigint[]): BigUint64Array {
  const s = new Set<bigint>();
  while (s.size < n) s.add(rand() < 0.7 ? pool[Math.floor(rand() * pool.length)] : u64());
  return BigUint64Array.from([...s].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
}

function slow(x: BigUint64Array, y: BigUint64Array): number {
  const s = new Set(x);
  let n = 0;
  for (const v of y) if (s.has(v)) n++;
  return n;
}

function cases(): { xs: BigUint64Array[]; ys: BigUint64Array[] } {
  // a small pool of shared values, half of them above 2^63
  const pool = Array.from({ length: 400 }, (_, i) => (i % 2 ? u64() | (1n << 63n) : u64() >> 1n));
  const sets = Array.from({ length: 60 }, () => randomSet(Math.floor(rand() * 300), pool));
  sets.push(new BigUint64Array(0), BigUint64Array.from([0n, 2n ** 64n - 1n]));
  const xs: BigUint64Array[] = [], ys: BigUint64Array[] = [];
  for (let q = 0; q < 500; q++) { xs.push(sets[Math.floor(rand() * sets.length)]); ys.push(sets[Math.floor(rand() * sets.length)]); }
  // a set with itself, a set with a part of itself (a view), one set against every other
  xs.push(sets[3], sets[5]); ys.push(sets[3], sets[5].subarray(10, 40));
  for (const s of sets) { xs.push(sets[0]); ys.push(s); }
  return { xs, ys };
}

test('intersectionCounts and intersectionCount equal a Set-based count, with and without the kernels', async () => {
  const { xs, ys } = cases();
  const expected = xs.map((x, q) => slow(x, ys[q]));
  assert.ok(expected.some((e) => e > 50), 'some pairs share many values');
  assert.ok(expected.some((e) => e === 0), 'some pairs share none');
  // before init: the TypeScript merge
  assert.equal([...intersectionCounts(xs, ys)], expected);
  await init();
  assert.equal([...intersectionCounts(xs, ys)], expected);
  assert.equal(xs.map((x, q) => intersectionCount(x, ys[q])), expected);
  // one pair, an odd count (the kernel merges two at a time), and none
  assert.equal([...intersectionCounts(xs.slice(0, 1), ys.slice(0, 1))], expected.slice(0, 1));
  assert.equal([...intersectionCounts(xs.slice(0, 7), ys.slice(0, 7))], expected.slice(0, 7));
  assert.is(intersectionCounts([], []).length, 0);
  // in many kernel calls of a few arrays each (one pair per call when one pair is over the bound)
  assert.equal([...intersectionCounts(xs, ys, 500)], expected);
  assert.equal([...intersectionCounts(xs, ys, 1)], expected);
});

test.run();
