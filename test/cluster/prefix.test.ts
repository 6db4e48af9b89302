// Prefix keys and pair counting over them: prefixMiss against a binomial summed term by term from
// exact binomial coefficients, prefixLength the shortest prefix that reaches PREFIX_MISS, prefixKeys
// against a slow reference, the miss model against planted pairs, and the candidate pairs of
// nearDuplicates (inline and on a pool) against a brute-force count of the prefix keys each pair shares;
// prefixKeysOnPool (its steps in ranges, on a pool's workers) against prefixKeys.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { nearDuplicates, nearDuplicatesOnPool, completeAbove } from '../../src/cluster/near-duplicates.js';
import { PREFIX_HITS, PREFIX_MISS, prefixKeys, prefixKeysOnPool, prefixLength, prefixMiss, prefixRunner, runPrefixStep, type PrefixRunner } from '../../src/cluster/prefix.js';
import { init } from '../../src/index.js';
import { createPool } from '../../src/stream/pool-node.js';
import { Rng, columnsFromSets, randomSet, variant } from './helpers.js';

await init();

/** C(n, k) exactly. */
function choose(n: number, k: number): bigint {
  let r = 1n;
  for (let i = 0; i < k; i++) r = (r * BigInt(n - i)) / BigInt(i + 1);
  return r;
}

/** P(Binomial(p, j) < h), each term from its exact coefficient. */
function missReference(p: number, j: number, h: number): number {
  let sum = 0;
  for (let k = 0; k < h && k <= p; k++) sum += Number(choose(p, k)) * j ** k * (1 - j) ** (p - k);
  return sum;
}

test('prefixMiss equals the binomial tail summed from exact coefficients', () => {
  for (const p of [1, 2, 5, 20, 36, 44, 51, 128]) {
    for (const j of [0.01, 0.1, 0.3232, 0.5, 0.9, 0.999]) {
      for (const h of [1, 2, 3, 5]) {
        const got = prefixMiss(p, j, h), want = missReference(p, j, h);
        assert.ok(Math.abs(got - want) <= 1e-12 + 1e-9 * want, `p ${p} j ${j} h ${h}: ${got} vs ${want}`);
      }
    }
  }
  assert.is(prefixMiss(10, 1, 2), 0);
  assert.is(prefixMiss(1, 1, 2), 1);
  assert.is(prefixMiss(10, 0, 1), 1);
});

test('prefixLength is the shortest prefix missing a pair at the lowest resemblance at most once in a million', () => {
  for (const s of [64, 128, 256]) {
    for (const lowest of [0.2, 0.3232, 0.5, 0.8, 0.95]) {
      for (const h of [1, 2, 3]) {
        const p = prefixLength(lowest, s, h);
        if (p === s) { assert.ok(missReference(s - 1, lowest, h) > PREFIX_MISS, `s ${s} lowest ${lowest} h ${h}: s only when nothing shorter reaches it`); continue; }
        assert.ok(missReference(p, lowest, h) <= PREFIX_MISS, `s ${s} lowest ${lowest} h ${h}: p ${p} reaches it`);
        assert.ok(p === h || missReference(p - 1, lowest, h) > PREFIX_MISS, `s ${s} lowest ${lowest} h ${h}: p ${p} is the shortest`);
      }
    }
  }
  // the figures the docs quote: threshold 0.5 with s = 128
  const lowest = completeAbove(1, 0.5, 128);
  assert.is(prefixLength(lowest, 128, 1), 36);
  assert.is(prefixLength(lowest, 128, 2), 44);
  assert.is(PREFIX_HITS, 2);
  assert.is(prefixLength(0, 128), 128);
});

test('prefixKeys: each document keyed by its first p values held by at most cap documents', () => {
  const rng = new Rng(7);
  const pool = randomSet(rng, 300);
  const sets: bigint[][] = [];
  for (let d = 0; d < 60; d++) sets.push(rng.shuffle(pool.slice()).slice(0, 20 + rng.int(100)).concat(randomSet(rng, rng.int(40))));
  const set = columnsFromSets(sets, { kind: 'min', s: 64 });
  const docs = Uint32Array.from({ length: set.size }, (_, d) => d).filter((d) => d % 7 !== 3);
  for (const [cap, p] of [[5, 10], [20, 3], [1000, 64]]) {
    const keys = prefixKeys(set, docs, cap, p);
    const held = new Map<bigint, number>();
    for (const d of docs) for (let j = set.offsets[d]; j < set.offsets[d + 1]; j++) held.set(set.values[j], (held.get(set.values[j]) ?? 0) + 1);
    for (let d = 0; d < set.size; d++) {
      const want: bigint[] = [];
      if (docs.includes(d)) for (let j = set.offsets[d]; j < set.offsets[d + 1] && want.length < p; j++) if (held.get(set.values[j])! <= cap) want.push(set.values[j]);
      assert.equal([...keys.values.subarray(keys.offsets[d], keys.offsets[d + 1])], want, `cap ${cap} p ${p} doc ${d}`);
    }
  }
});

test('a pair at resemblance J shares fewer than h of p prefix keys no more often than Binomial(p, J) < h', () => {
  const rng = new Rng(11);
  const trials = 1500;
  for (const [j, p, h] of [[0.3, 8, 2], [0.5, 6, 3], [0.2, 12, 2]] as const) {
    const sets: bigint[][] = [];
    for (let t = 0; t < trials; t++) { const base = randomSet(rng, 400); sets.push(base, variant(rng, base, j)); }
    const set = columnsFromSets(sets, { kind: 'min', s: 128 });
    const keys = prefixKeys(set, Uint32Array.from({ length: set.size }, (_, d) => d), 1 << 30, p);
    let missed = 0;
    for (let t = 0; t < trials; t++) {
      const a = new Set(keys.values.subarray(keys.offsets[2 * t], keys.offsets[2 * t + 1]));
      let shared = 0;
      for (const v of keys.values.subarray(keys.offsets[2 * t + 1], keys.offsets[2 * t + 2])) if (a.has(v)) shared++;
      if (shared < h) missed++;
    }
    const bound = missReference(p, j, h), sd = Math.sqrt((bound * (1 - bound)) / trials);
    assert.ok(missed / trials <= bound + 4 * sd, `J ${j} p ${p} h ${h}: missed ${missed / trials} > bound ${bound.toFixed(4)} + 4 sd`);
    // the bound is safe, not tight (two documents' own prefixes also share values outside the
    // union's first p); these parameters still miss often enough for the check to mean something
    assert.ok(missed >= trials / 50, `J ${j} p ${p} h ${h}: missed ${missed} of ${trials}`);
  }
});

/** Brute force: pairs (a < b) sharing at least h keys of `keys`, or any when their keys number fewer than p together. */
function pairsSharing(keys: { values: BigUint64Array; offsets: Uint32Array }, n: number, h: number, p: number): Set<string> {
  const out = new Set<string>();
  for (let a = 0; a < n; a++) {
    const x = new Set(keys.values.subarray(keys.offsets[a], keys.offsets[a + 1]));
    for (let b = a + 1; b < n; b++) {
      let shared = 0;
      for (const v of keys.values.subarray(keys.offsets[b], keys.offsets[b + 1])) if (x.has(v)) shared++;
      const union = x.size + (keys.offsets[b + 1] - keys.offsets[b]) - shared;
      if (shared > 0 && (shared >= h || union < p)) out.add(`${a},${b}`);
    }
  }
  return out;
}

test('nearDuplicates: candidates are the pairs sharing prefixHits prefix keys, inline and on a pool; clusters as with every pair', async () => {
  const rng = new Rng(3);
  const sets: bigint[][] = [];
  const shared = randomSet(rng, 2000);
  for (let g = 0; g < 40; g++) {
    // families of near-copies that also share some navigation-like values with every other family
    const base = randomSet(rng, 150 + rng.int(300)).concat(rng.shuffle(shared.slice()).slice(0, 30));
    sets.push(base, variant(rng, base, 0.3 + 0.7 * rng.next()), variant(rng, base, 0.5 * rng.next()));
    // short rows: a few values, some shared with the family's small page
    const small = randomSet(rng, 1 + rng.int(6));
    sets.push(small, small.slice(0, 1).concat(randomSet(rng, rng.int(3))));
  }
  const set = columnsFromSets(sets, { kind: 'min', s: 128 });
  const pool = createPool({ workers: 2 });
  try {
    for (const hits of [1, 2, 3]) {
      const nd = nearDuplicates(set, { prefixHits: hits, equivalence: 'none', pairFloor: 0 });
      assert.is(nd.stats.minHits, hits);
      assert.is(nd.stats.prefix, prefixLength(completeAbove(1, 0.5, 128), 128, hits));
      const keys = prefixKeys(set, Uint32Array.from({ length: set.size }, (_, d) => d), 1000, nd.stats.prefix);
      const want = pairsSharing(keys, set.size, hits, nd.stats.prefix);
      assert.is(nd.stats.candidatePairs, want.size, `hits ${hits}: candidate pairs`);
      const got = new Set<string>();
      for (let i = 0; i < nd.pairs.count; i++) got.add(`${nd.pairs.a[i]},${nd.pairs.b[i]}`);
      assert.equal([...got].sort(), [...want].sort(), `hits ${hits}: every candidate kept at floor 0, none other`);
      const onPool = await nearDuplicatesOnPool(set, pool, { prefixHits: hits, equivalence: 'none', pairFloor: 0, chunkPairs: 50 });
      assert.is(onPool.stats.candidatePairs, nd.stats.candidatePairs);
      assert.equal(Array.from(onPool.clusters.clusterOf), Array.from(nd.clusters.clusterOf), `hits ${hits}: pool`);
    }
    // two hits find the pairs one hit finds at the threshold: the same clusters as every value keyed
    const all = nearDuplicates(set, { prefix: 0 });
    for (const hits of [1, 2]) assert.equal(Array.from(nearDuplicates(set, { prefixHits: hits }).clusters.clusterOf), Array.from(all.clusters.clusterOf), `hits ${hits}`);
    assert.is(all.stats.minHits, 1);
  } finally {
    await pool.close();
  }
});

test('pages of a few shingles: a pair sharing one of them is a candidate (the binomial bound needs a whole prefix)', () => {
  // {x} and {x, y}: resemblance 0.5, one shared key of a union of two
  const rng = new Rng(9);
  const [x, y, z] = randomSet(rng, 3);
  const sets = [[x], [x, y], [y, z, ...randomSet(rng, 5)], ...Array.from({ length: 20 }, () => randomSet(rng, 200))];
  const set = columnsFromSets(sets, { kind: 'min', s: 128 });
  const nd = nearDuplicates(set);
  assert.is(nd.stats.minHits, 2);
  assert.is(nd.clusters.clusterOf[0], nd.clusters.clusterOf[1], '{x} and {x, y} join at 0.5');
  assert.is.not(nd.clusters.clusterOf[0], -1);
  assert.equal(Array.from(nd.clusters.clusterOf), Array.from(nearDuplicates(set, { prefix: 0 }).clusters.clusterOf));
});

test('prefixHits: clear errors where no prefix keys the pairs', () => {
  const rng = new Rng(5);
  const set = columnsFromSets([randomSet(rng, 50), randomSet(rng, 50)], { kind: 'min', s: 128 });
  const bad = (options: object, what: RegExp) => assert.throws(() => nearDuplicates(set, options), (e: unknown) => e instanceof Error && what.test(e.message), JSON.stringify(options));
  bad({ prefixHits: 2, prefix: 0 }, /prefixHits/);
  bad({ prefixHits: 2, containment: 0.5 }, /prefixHits/);
  bad({ prefixHits: 0 }, /prefixHits/);
  bad({ prefixHits: 17 }, /prefixHits/);
  bad({ prefixHits: 1.5 }, /prefixHits/);
  bad({ prefix: 2, prefixHits: 3 }, /prefix/);
  assert.is(nearDuplicates(set, { prefix: 3, prefixHits: 3 }).stats.minHits, 3);
  const mod = columnsFromSets([randomSet(rng, 50)], { kind: 'mod', mLog2: 0 });
  assert.throws(() => nearDuplicates(mod, { prefixHits: 2 }), /prefixHits/);
  assert.is(nearDuplicates(mod).stats.minHits, 1);
});


/** Takes columns; returns a copy whose values and offsets are on SharedArrayBuffers (as a crawl sketched for a pool keeps them). */
function onShared<T extends { values: BigUint64Array; offsets: Uint32Array }>(set: T): T {
  const values = new BigUint64Array(new SharedArrayBuffer(set.values.byteLength)), offsets = new Uint32Array(new SharedArrayBuffer(set.offsets.byteLength));
  values.set(set.values); offsets.set(set.offsets);
  return { ...set, values, offsets };
}

const sameKeys = (got: { values: BigUint64Array; offsets: Uint32Array; ignoredShingles: number; ignoredPostings: number }, want: typeof got, what: string) => {
  assert.equal(Array.from(got.offsets), Array.from(want.offsets), `${what}: offsets`);
  assert.equal(Array.from(got.values), Array.from(want.values), `${what}: values`);
  assert.equal([got.ignoredShingles, got.ignoredPostings], [want.ignoredShingles, want.ignoredPostings], `${what}: what the cap dropped`);
};

test('prefixKeysOnPool: the steps in any number of ranges give what prefixKeys gives, bit for bit', async () => {
  const rng = new Rng(38);
  const shared = randomSet(rng, 400);
  const sets: bigint[][] = [];
  for (let d = 0; d < 250; d++) sets.push(rng.shuffle(shared.slice()).slice(0, rng.int(120)).concat(randomSet(rng, rng.int(60))));
  const set = onShared(columnsFromSets(sets, { kind: 'min', s: 128 }));
  const docs = Uint32Array.from({ length: set.size }, (_, d) => d).filter((d) => d % 5 !== 2 && set.offsets[d + 1] > set.offsets[d]);
  // steps run here, in turn (the splitting is what is tested; the pool runs the same steps)
  const here: PrefixRunner = async (jobs) => jobs.map(runPrefixStep);
  for (const [cap, p] of [[3, 10], [40, 44], [1000, 128]]) {
    const want = prefixKeys(set, docs, cap, p);
    assert.ok(cap > 100 || want.ignoredShingles > 0, `cap ${cap}: some values common`);
    for (const ranges of [1, 2, 3, 7, 64, 1000]) sameKeys(await prefixKeysOnPool(set, docs, cap, p, here, ranges), want, `cap ${cap} p ${p} ranges ${ranges}`);
  }
  sameKeys(await prefixKeysOnPool(set, new Uint32Array(0), 3, 10, here, 4), prefixKeys(set, new Uint32Array(0), 3, 10), 'no documents');
});

test('prefix keys on a pool of 2 and 3 workers (partitions too: more than 2^20 entries), and nearDuplicatesOnPool above the size it uses them at', async () => {
  const rng = new Rng(380);
  const base = Array.from({ length: 600 }, () => randomSet(rng, 128));
  const sets: bigint[][] = [];
  // 9,000 documents of 128 values: near copies of 600 bases, and a value on every tenth page (common at cap 500)
  const everywhere = 1n << 63n;
  for (let d = 0; d < 9000; d++) {
    const v = variant(rng, base[d % 600], 0.8).slice(0, 127);
    if (d % 10 === 0) v.push(everywhere);
    sets.push(v);
  }
  const set = onShared(columnsFromSets(sets, { kind: 'min', s: 128 }));
  assert.ok(set.values.length > 1 << 20, `${set.values.length} entries`);
  const docs = Uint32Array.from({ length: set.size }, (_, d) => d).filter((d) => d % 9 !== 4);
  const want = prefixKeys(set, docs, 500, 44);
  assert.ok(want.ignoredShingles > 0, 'the value on every tenth page is common');
  for (const workers of [2, 3]) {
    const pool = createPool({ workers });
    try {
      sameKeys(await prefixKeysOnPool(set, docs, 500, 44, prefixRunner(pool), 2 * workers), want, `${workers} workers`);
      const one = nearDuplicates(set, { commonCap: 500 }), many = await nearDuplicatesOnPool(set, pool, { commonCap: 500 });
      assert.equal(many.stats, one.stats);
      assert.equal(JSON.parse(JSON.stringify(many.clusters)), JSON.parse(JSON.stringify(one.clusters)));
      assert.ok(one.clusters.count > 100, `${one.clusters.count} clusters`);
    } finally {
      await pool.close();
    }
  }
});

test.run();
