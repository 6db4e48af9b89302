import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { keyedColumns, sortKeyed, sortKeyedFast } from '../../src/cluster/radix-sort.js';
import { init } from '../../src/index.js';
import { buildPostings, findList } from '../../src/cluster/postings.js';
import { Rng } from './helpers.js';

function check(keys: bigint[], sort = sortKeyed): void {
  const n = keys.length;
  const a = keyedColumns(n), t = keyedColumns(n);
  keys.forEach((k, i) => { a.hi[i] = Number(k >> 32n); a.lo[i] = Number(k & 0xffffffffn); a.pay[i] = i; });
  sort(a, t, n);
  const ref = keys.map((k, i) => [k, i] as const).sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] - y[1]));
  let bad = -1;
  for (let i = 0; i < n && bad < 0; i++) {
    if (((BigInt(a.hi[i]) << 32n) | BigInt(a.lo[i])) !== ref[i][0] || a.pay[i] !== ref[i][1]) bad = i;
  }
  assert.is(bad, -1, `first entry out of order (n=${n})`);
}

test('radix sort equals a stable reference sort on random, clustered and adversarial keys', () => {
  const rng = new Rng(2);
  for (const n of [0, 1, 2, 47, 49, 1000, 20000]) {
    check(Array.from({ length: n }, () => rng.u64()));
    // Few distinct keys (many ties): stability matters.
    check(Array.from({ length: n }, () => BigInt(rng.int(5)) << 40n));
    // Equal high words, so every key lands in one long run sorted by low word.
    check(Array.from({ length: n }, () => BigInt(rng.int(1 << 30)) * 3n));
    // Equal low words.
    check(Array.from({ length: n }, () => (BigInt(rng.int(1000)) << 32n) | 7n));
  }
  check(Array.from({ length: 70000 }, () => rng.u64()));
});

test('the WebAssembly kernel sort_keyed equals the same stable reference', async () => {
  await init();
  const rng = new Rng(4);
  for (const n of [0, 1, 63, 64, 65, 1000, 30000]) {
    check(Array.from({ length: n }, () => rng.u64()), sortKeyedFast);
    check(Array.from({ length: n }, () => BigInt(rng.int(7)) << 33n), sortKeyedFast);
    check(Array.from({ length: n }, () => BigInt(rng.int(1 << 30)) * 3n), sortKeyedFast);
    check(Array.from({ length: n }, () => (BigInt(rng.int(1000)) << 32n) | BigInt(rng.int(50))), sortKeyedFast);
  }
});

test('postings list the documents of each value; the cap drops and counts common values', () => {
  const rng = new Rng(3);
  const n = 300;
  const pool = Array.from({ length: 400 }, () => rng.u64());
  const rows: bigint[][] = [];
  for (let d = 0; d < n; d++) {
    const r = new Set<bigint>();
    r.add(pool[0]); // in every document
    for (let i = 0; i < 12; i++) r.add(pool[rng.int(pool.length)]);
    rows.push(Array.from(r).sort((x, y) => (x < y ? -1 : 1)));
  }
  const offsets = new Uint32Array(n + 1);
  rows.forEach((r, d) => (offsets[d + 1] = offsets[d] + r.length));
  const values = new BigUint64Array(rows.flat());
  const truth = new Map<bigint, number[]>();
  rows.forEach((r, d) => r.forEach((v) => { if (!truth.has(v)) truth.set(v, []); truth.get(v)!.push(d); }));
  for (const partitionEntries of [1024, 1 << 22]) {
    const cap = 40;
    const post = buildPostings(values, offsets, { cap, keepSingletons: true, keepKeys: true, countIgnored: true, partitionEntries });
    let ignored = 0;
    const perDoc = new Uint32Array(n);
    for (const [v, docs] of truth) {
      const l = findList(post, Number(v >> 32n), Number(v & 0xffffffffn));
      if (docs.length > cap) { ignored++; assert.is(l, -1); docs.forEach((d) => perDoc[d]++); continue; }
      assert.ok(l >= 0, 'value found');
      assert.equal(Array.from(post.docs.subarray(post.listStart[l], post.listStart[l + 1])), docs);
    }
    assert.is(post.ignoredShingles, ignored);
    assert.ok(ignored >= 1);
    assert.equal(Array.from(post.ignoredPerDoc!), Array.from(perDoc));
    assert.is(findList(post, 1, 2), -1);
    // Without singletons: only lists of ≥ 2 documents remain.
    const pairsOnly = buildPostings(values, offsets, { cap, keepSingletons: false, keepKeys: false, partitionEntries });
    const expected = [...truth.values()].filter((d) => d.length >= 2 && d.length <= cap).reduce((s, d) => s + d.length, 0);
    assert.is(pairsOnly.docs.length, expected);
  }
});

test.run();
