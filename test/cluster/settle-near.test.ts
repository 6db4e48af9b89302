// settleNear checks the fewest pairs it can and still gives the clusters of the exact values:
// on random corpora of variants near the threshold (in one round or two), its clusters equal those of checking every
// pair near the threshold and the components of exact Jaccard ≥ 0.5 over all pairs (brute force), it checks no more than those, every value it writes is exact, and no
// member joins through a near pair left unchecked (an estimate is no evidence there).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { nearDuplicates, type NearDuplicates } from '../../src/cluster/near-duplicates.js';
import { KIND_NEAR } from '../../src/cluster/equivalence.js';
import { UnionFind } from '../../src/cluster/union-find.js';
import { Rng, columnsFromSets, containmentOf, jaccard, randomSet, variant } from './helpers.js';

/** Families of variants of a base (or of the variant before), each at a resemblance around the threshold: most components joined by one near pair. */
function corpus(rng: Rng): bigint[][] {
  const sets: bigint[][] = [];
  for (let g = 0; g < 12; g++) {
    const base = randomSet(rng, 150 + Math.floor(rng.next() * 300));
    sets.push(base);
    const k = 2 + Math.floor(rng.next() * 5);
    for (let i = 0; i < k; i++) sets.push(variant(rng, rng.next() < 0.5 ? base : sets[sets.length - 1], 0.4 + rng.next() * 0.3));
  }
  return sets;
}

/** Builds of a page: two families of close copies (each joined by confident pairs), the second a variant of the first near the threshold, so many near pairs lie between the two. */
function builds(rng: Rng): bigint[][] {
  const sets: bigint[][] = [];
  for (let g = 0; g < 6; g++) {
    const base = randomSet(rng, 200 + Math.floor(rng.next() * 300));
    const other = variant(rng, base, 0.42 + rng.next() * 0.16);
    for (const root of [base, other]) {
      sets.push(root);
      for (let i = 0; i < 4; i++) sets.push(variant(rng, root, 0.93 + rng.next() * 0.05));
    }
  }
  return sets;
}

const exactOf = (sets: bigint[][], nd: NearDuplicates, idx: ArrayLike<number>) => ({
  resemblance: Array.from(idx, (i) => jaccard(sets[nd.pairs.a[i]], sets[nd.pairs.b[i]])),
  containmentAB: Array.from(idx, (i) => containmentOf(sets[nd.pairs.a[i]], sets[nd.pairs.b[i]])),
  containmentBA: Array.from(idx, (i) => containmentOf(sets[nd.pairs.b[i]], sets[nd.pairs.a[i]])),
});

test('settleNear: the clusters of every near pair checked, from fewer checks', async () => {
  let near = 0, checked = 0, manyRounds = 0, oneRound = 0;
  for (let seed = 1; seed <= 40; seed++) {
    const sets = seed % 2 === 0 ? corpus(new Rng(seed)) : builds(new Rng(seed));
    const all = nearDuplicates(columnsFromSets(sets, { kind: 'min', s: 128 }));
    const idx = all.uncertain(3);
    const reference = all.settle(idx, exactOf(sets, all, idx));

    const nd = nearDuplicates(columnsFromSets(sets, { kind: 'min', s: 128 }));
    const estimates = Float64Array.from(nd.pairs.resemblance);
    const asked = new Set<number>();
    let calls = 0;
    const r = await nd.settleNear(3, async (i) => {
      calls++;
      for (const k of i) { assert.ok(!asked.has(k), `pair ${k} checked twice`); asked.add(k); }
      return exactOf(sets, nd, i);
    });
    assert.is(r.near, idx.length, `seed ${seed}: near pairs`);
    assert.is(r.checked, asked.size);
    assert.ok(r.checked <= idx.length);
    for (const k of asked) assert.ok(idx.includes(k), `seed ${seed}: pair ${k} was not near`);
    assert.equal(Array.from(nd.clusters.clusterOf), Array.from(reference.clusterOf), `seed ${seed}: clusters`);
    // and both are the components of exact Jaccard ≥ 0.5 over every pair of documents (brute force)
    const uf = new UnionFind(sets.length);
    for (let a = 0; a < sets.length; a++) for (let b = a + 1; b < sets.length; b++) if (jaccard(sets[a], sets[b]) >= 0.5) uf.union(a, b);
    for (let a = 0; a < sets.length; a++) for (let b = a + 1; b < sets.length; b++) {
      assert.is(uf.find(a) === uf.find(b), nd.clusters.clusterOf[a] >= 0 && nd.clusters.clusterOf[a] === nd.clusters.clusterOf[b], `seed ${seed}: docs ${a}, ${b}`);
    }
    const truth = exactOf(sets, nd, Array.from({ length: nd.pairs.count }, (_, i) => i));
    for (let i = 0; i < nd.pairs.count; i++) {
      const v = nd.pairs.resemblance[i];
      assert.ok(asked.has(i) ? v === truth.resemblance[i] : v === estimates[i], `seed ${seed}: pair ${i}`);
    }
    // a member joins through a confident pair, a checked one over the threshold, or an identity
    const c = nd.clusters;
    for (let d = 0; d < c.documents; d++) {
      if (c.via[d] < 0 || c.kind[d] !== KIND_NEAR) continue;
      assert.ok(c.resemblance[d] >= 0.5, `seed ${seed}: doc ${d} joins at ${c.resemblance[d]}`);
      const i = Array.from({ length: nd.pairs.count }, (_, k) => k).find((k) => (nd.pairs.a[k] === d && nd.pairs.b[k] === c.via[d]) || (nd.pairs.b[k] === d && nd.pairs.a[k] === c.via[d]))!;
      if (idx.includes(i) && !asked.has(i)) assert.unreachable(`seed ${seed}: doc ${d} joins through unchecked near pair ${i}`);
    }
    near += idx.length; checked += r.checked;
    if (calls > 1) manyRounds++;
    else if (calls === 1) oneRound++;
  }
  assert.ok(near > 100, `${near} near pairs in all`);
  assert.ok(checked < near, `${checked} of ${near} checked`);
  assert.ok(manyRounds > 0 && oneRound > 0, `${manyRounds} corpora checked in two rounds, ${oneRound} in one`);
});

test('settleNear: nothing near, nothing checked', async () => {
  const rng = new Rng(7);
  const base = randomSet(rng, 300);
  const sets = [base, variant(rng, base, 0.95), randomSet(rng, 300)];
  const nd = nearDuplicates(columnsFromSets(sets, { kind: 'min', s: 128 }));
  const r = await nd.settleNear(3, async () => assert.unreachable('no pair is near') as never);
  assert.equal(r, { near: 0, checked: 0 });
  assert.is(nd.clusters.count, 1);
});

test.run();
