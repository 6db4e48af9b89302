import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { nearDuplicates } from '../../src/cluster/near-duplicates.js';
import type { Clusters } from '../../src/cluster/clusters.js';
import { UnionFind } from '../../src/cluster/union-find.js';
import { ResembleError } from '../../src/errors.js';
import { Rng, columnsFromSets, containmentOf, jaccard, jaccardIds, permute, plantedCorpus, randomSet, toIds, type ColumnSpec } from './helpers.js';

/** Partition of documents as sorted member lists (clusters of ≥ 2). */
function partition(c: Clusters): string[] {
  const out: string[] = [];
  for (let i = 0; i < c.count; i++) out.push(Array.from(c.membersOf(i)).sort((a, b) => a - b).join(','));
  return out.sort();
}

/** Brute force: connected components of exact Jaccard ≥ t over all pairs. */
function exactPartition(sets: bigint[][], t: number): { parts: string[]; j: number[][] } {
  const n = sets.length;
  const ids = toIds(sets);
  const uf = new UnionFind(n);
  const j: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) {
    j[a][b] = j[b][a] = jaccardIds(ids[a], ids[b]);
    if (j[a][b] >= t) uf.union(a, b);
  }
  const groups = new Map<number, number[]>();
  for (let d = 0; d < n; d++) { const r = uf.find(d); if (!groups.has(r)) groups.set(r, []); groups.get(r)!.push(d); }
  return { parts: [...groups.values()].filter((g) => g.length > 1).map((g) => g.join(',')).sort(), j };
}

const rng = new Rng(42);
const corpus = plantedCorpus(rng, 24, 1200);
const truth = exactPartition(corpus.sets, 0.5);
const specs: ColumnSpec[] = [{ kind: 'min', s: 256 }, { kind: 'mod', mLog2: 2 }, { kind: 'adaptive' }];

for (const spec of specs) {
  test(`${spec.kind}: clusters equal the components of exact Jaccard ≥ 0.5; recall, precision and chains`, () => {
    const set = columnsFromSets(corpus.sets, spec);
    const nd = nearDuplicates(set);
    const c = nd.clusters;
    const n = set.size;
    // Recall: every pair with exact J ≥ 0.6 is in one cluster.
    let high = 0, found = 0;
    for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) {
      if (truth.j[a][b] >= 0.6) { high++; if (c.clusterOf[a] >= 0 && c.clusterOf[a] === c.clusterOf[b]) found++; }
    }
    assert.ok(high > 50);
    assert.is(found, high, `recall ${found}/${high}`);
    // Precision at the link level: every near link joins documents with exact J ≥ 0.4.
    let links = 0;
    for (let d = 0; d < n; d++) {
      const e = c.evidence(d);
      if (e.kind !== 'near') continue;
      links++;
      assert.ok(truth.j[d][e.via!] >= 0.4, `link ${d}–${e.via} exact ${truth.j[d][e.via!]}`);
      assert.ok(Math.abs(e.resemblance - truth.j[d][e.via!]) < 0.15, 'estimate near exact');
    }
    assert.ok(links > 50);
    // Pairs with exact J ≤ 0.4 share a cluster only through a chain, and the chain is reported.
    let far = 0;
    for (let i = 0; i < c.count; i++) {
      const rep = c.representative[i];
      for (const d of c.membersOf(i)) {
        if (d === rep) continue;
        const e = c.evidence(d);
        if (truth.j[d][rep] <= 0.4) { far++; assert.ok(e.chained && e.depth >= 2, `member ${d} at exact ${truth.j[d][rep]} marked chained`); }
        if (truth.j[d][rep] >= 0.6) assert.not.ok(e.chained, `member ${d} close to the representative not chained`);
      }
    }
    assert.ok(far > 0, 'the planted chains reach beyond 0.4');
    assert.ok(c.stats.chainedClusters > 0);
    // The whole partition equals brute force (no planted pair sits near 0.5 on a bridge).
    assert.equal(partition(c), truth.parts);
    // Identical copies are set aside and marked.
    for (let d = 0; d < n; d++) {
      if (corpus.identicalTo[d] !== d) {
        const e = c.evidence(d);
        const rep = c.representative[c.clusterOf[d]];
        if (d !== rep) { assert.is(e.kind, 'identical'); assert.is(e.via, corpus.identicalTo[d]); }
      }
    }
    assert.is(nd.stats.identical, corpus.identicalTo.filter((x, i) => x !== i).length);
  });
}

test('order independence: shuffled input gives the same clusters and representatives', () => {
  const set = columnsFromSets(corpus.sets, { kind: 'min', s: 256 });
  const n = set.size;
  const dates = Float64Array.from({ length: n }, (_, i) => Date.UTC(2020, 0, 1) + ((i * 7919) % n) * 86400000);
  const base = nearDuplicates(set, { representative: 'earliest', dates });
  for (let round = 0; round < 3; round++) {
    const order = rng.shuffle(Array.from({ length: n }, (_, i) => i));
    const shuffled = permute(set, order);
    const c = nearDuplicates(shuffled, { representative: 'earliest', dates: Float64Array.from(order, (o) => dates[o]) }).clusters;
    const mapped: string[] = [], reps: number[] = [];
    for (let i = 0; i < c.count; i++) {
      mapped.push(Array.from(c.membersOf(i), (d) => order[d]).sort((a, b) => a - b).join(','));
      reps.push(order[c.representative[i]]);
    }
    assert.equal(mapped.sort(), partition(base.clusters));
    assert.equal(reps.sort((a, b) => a - b), Array.from(base.clusters.representative).sort((a, b) => a - b));
    // The representative is the earliest member.
    for (let i = 0; i < c.count; i++) {
      const m = Array.from(c.membersOf(i));
      const earliest = m.reduce((x, y) => (dates[order[y]] < dates[order[x]] ? y : x));
      assert.is(c.representative[i], earliest);
    }
  }
});

test('common-shingle cap: boilerplate in every document does not glue unrelated documents', () => {
  const r = new Rng(5);
  const boiler = randomSet(r, 3);
  // Each document: 3 boilerplate shingles + 1 of its own → resemblance 3/5 between any two.
  const sets = Array.from({ length: 120 }, () => boiler.concat(randomSet(r, 1)));
  const set = columnsFromSets(sets, { kind: 'mod', mLog2: 0 });
  const capped = nearDuplicates(set, { commonCap: 100 });
  assert.is(capped.clusters.count, 0, 'no clusters when the boilerplate is ignored');
  assert.is(capped.stats.ignoredShingles, 3);
  assert.is(capped.stats.ignoredPostings, 360);
  const uncapped = nearDuplicates(set, { commonCap: 1000 });
  assert.is(uncapped.clusters.count, 1, 'without the cap everything is one cluster');
  assert.is(uncapped.clusters.stats.clusteredDocuments, 120);
  assert.is(uncapped.stats.ignoredShingles, 0);
});

test('recluster with another policy equals clustering from scratch with it', () => {
  const set = columnsFromSets(corpus.sets, { kind: 'mod', mLog2: 2 });
  const nd = nearDuplicates(set, { pairFloor: 0.2 });
  for (const policy of [{ threshold: 0.7 }, { threshold: 0.3 }, { threshold: 0.9, containment: 0.5 }]) {
    const again = nd.recluster(policy);
    const fresh = nearDuplicates(set, { ...policy, pairFloor: 0.2 }).clusters;
    assert.equal(Array.from(again.clusterOf), Array.from(fresh.clusterOf));
    assert.equal(Array.from(again.via), Array.from(fresh.via));
    assert.equal(Array.from(again.resemblance), Array.from(fresh.resemblance));
  }
  assert.ok(nd.recluster({ threshold: 0.3 }).count <= nd.clusters.count + 50);
  assert.throws(() => nd.recluster({ threshold: 0.1 }), (e: unknown) => e instanceof ResembleError && e.code === 'E_OPTION');
});

test('containment policy joins a document contained in a larger one; evidence is oriented', () => {
  const r = new Rng(6);
  const big = randomSet(r, 2000);
  const small = big.slice(0, 500);
  const sets = [big, small, randomSet(r, 800)];
  const set = columnsFromSets(sets, { kind: 'mod', mLog2: 1 });
  assert.is(nearDuplicates(set).clusters.count, 0, 'resemblance 0.25 alone does not join');
  const c = nearDuplicates(set, { containment: 0.8 }).clusters;
  assert.is(c.count, 1);
  assert.equal(Array.from(c.membersOf(0)), [0, 1]);
  const e = c.evidence(1);
  assert.is(e.via, 0);
  assert.ok(Math.abs(e.containment - containmentOf(small, big)) < 0.05, `containment ${e.containment}`);
  assert.ok(Math.abs(e.contains - containmentOf(big, small)) < 0.05, `reverse ${e.contains}`);
  assert.ok(Math.abs(e.resemblance - jaccard(small, big)) < 0.05);
});

test('lsh and super-shingles: same output shape; verified links are true, close pairs found', () => {
  const sets = corpus.sets;
  const set = columnsFromSets(sets, { kind: 'min', s: 256 }, { signatureK: 64, superSize: 2 });
  const n = set.size;
  for (const method of ['lsh', 'super-shingles'] as const) {
    // Verification removes false positives, so weigh false negatives more when choosing bands.
    const nd = nearDuplicates(set, method === 'lsh' ? { method, verify: true, falsePositiveWeight: 0.2, falseNegativeWeight: 0.8 } : { method, verify: true });
    const c = nd.clusters;
    let high = 0, found = 0;
    const minJ = method === 'lsh' ? 0.6 : 0.85;
    for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) {
      if (truth.j[a][b] >= minJ) { high++; if (c.clusterOf[a] >= 0 && c.clusterOf[a] === c.clusterOf[b]) found++; }
    }
    assert.ok(found >= 0.97 * high, `${method} recall ${found}/${high}`);
    for (let d = 0; d < n; d++) {
      const e = c.evidence(d);
      if (e.kind === 'near') { assert.ok(truth.j[d][e.via!] >= 0.4, `${method} link`); assert.ok(e.hits >= 1); }
    }
    if (method === 'lsh') {
      assert.ok(nd.stats.lsh!.bands * nd.stats.lsh!.rows <= 64);
      assert.ok(nd.stats.lsh!.falseNegative < 0.01, `false-negative area ${nd.stats.lsh!.falseNegative}`);
      // Unverified: every candidate joins, so at least as many documents are clustered.
      const loose = nearDuplicates(set, { method, verify: false });
      assert.ok(loose.clusters.stats.clusteredDocuments >= c.stats.clusteredDocuments);
      const reverify = loose.recluster({ verify: true });
      const strict = nearDuplicates(set, { method, verify: true });
      assert.equal(partition(reverify), partition(strict.clusters));
    }
  }
});

test('options are validated before work', () => {
  const set = columnsFromSets([randomSet(rng, 10)], { kind: 'min', s: 8 });
  const bad = (o: object, code = 'E_OPTION') => assert.throws(() => nearDuplicates(set, o as never), (e: unknown) => e instanceof ResembleError && e.code === code);
  bad({ threshold: 1.5 });
  bad({ method: 'kmeans' });
  bad({ commonCap: 0 });
  bad({ thresold: 0.5 });
  bad({ verify: false });
  bad({ prefix: 4, containment: 0.5 });
  bad({ prefix: -1 });
  bad({ method: 'lsh' });
  bad({ method: 'super-shingles' });
  bad({ representative: 'earliest' });
  bad({ pairFloor: 0.9 });
  assert.throws(() => nearDuplicates({ ...set, offsets: new Uint32Array([0, 3]) }), (e: unknown) => e instanceof ResembleError && e.code === 'E_INPUT');
});

test('empty sketches and tiny documents do not glue; identical empty pages still do', () => {
  const sets = [[], [], [1n], [2n]];
  const set = columnsFromSets(sets, { kind: 'min', s: 4 });
  const c = nearDuplicates(set).clusters;
  assert.is(c.count, 1);
  assert.equal(Array.from(c.membersOf(0)), [0, 1]);
  assert.is(c.evidence(1).kind, 'identical');
});

test.run();
