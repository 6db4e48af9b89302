import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ResembleIndex } from '../../src/cluster/resemble-index/resemble-index.js';
import { loadIndex, saveIndex } from '../../src/cluster/resemble-index/resemble-index.js';
import { nearDuplicates } from '../../src/cluster/near-duplicates.js';
import { SetEstimator } from '../../src/sketch/row-estimates.js';
import type { ClusterColumns } from '../../src/sketch/columns.js';
import { ResembleError } from '../../src/errors.js';
import { Rng, columnsFromSets, indexed, permute, plantedCorpus, queryDoc, randomSet, variant, type ColumnSpec } from './helpers.js';

const rng = new Rng(77);
const corpus = plantedCorpus(rng, 16, 800);
const N = corpus.sets.length;
const urls = corpus.sets.map((_, i) => `https://example.org/page/${i}`);

function partitionOf(lists: Uint32Array[] | number[][], map: (d: number) => number = (d) => d): string[] {
  return lists.map((m) => Array.from(m, map).sort((a, b) => a - b).join(',')).sort();
}

function subset(set: ClusterColumns, ids: number[]): ClusterColumns {
  return permute(set, ids);
}

for (const spec of [{ kind: 'min', s: 128 }, { kind: 'mod', mLog2: 2 }, { kind: 'adaptive' }] as ColumnSpec[]) {
  test(`${spec.kind}: query equals brute force over every document (inside and outside the index)`, () => {
    const set = columnsFromSets(corpus.sets, spec);
    const index = indexed(set, { keys: urls });
    // Outside documents: fresh variants of indexed ones, and an unrelated one.
    const outside = [variant(rng, corpus.sets[0], 0.7), variant(rng, corpus.sets[7], 0.5), randomSet(rng, 800), corpus.sets[3].slice(0, 300)];
    const qset = columnsFromSets(outside, spec);
    const all = columnsFromSets(corpus.sets.concat(outside), spec);
    const est = new SetEstimator(all);
    for (const [threshold, containment] of [[0.5, undefined], [0.3, 0.8], [0, undefined]] as const) {
      for (let q = 0; q < outside.length; q++) {
        const sk = { params: qset.params, values: qset.values.subarray(qset.offsets[q], qset.offsets[q + 1]), cardinality: qset.cardinality[q], modulusLog2: qset.modulusLog2?.[q] ?? 0, tokens: 0 };
        const hits = index.query(sk, { threshold, containment });
        const expect: { doc: number; r: number; c: number; cb: number }[] = [];
        for (let d = 0; d < N; d++) {
          const r = est.pair(N + q, d);
          const c = est.out[1], cb = est.out[2];
          if (est.out[3] === 0) continue; // no shared value: never a candidate
          if (r >= threshold || (containment !== undefined && (c >= containment || cb >= containment))) expect.push({ doc: d, r, c, cb });
        }
        expect.sort((x, y) => y.r - x.r || Math.max(y.c, y.cb) - Math.max(x.c, x.cb) || x.doc - y.doc);
        assert.equal(hits.map((h) => h.doc), expect.map((e) => e.doc), `query ${q} at ${threshold}/${containment}`);
        assert.equal(hits.map((h) => h.resemblance), expect.map((e) => e.r));
        assert.equal(hits.map((h) => h.containment), expect.map((e) => e.c));
        for (const h of hits) assert.is(h.key, urls[h.doc]);
      }
    }
    // An indexed document finds its cluster-mates, not itself.
    const hits = queryDoc(index, 0);
    assert.ok(hits.length >= 2 && hits.every((h) => h.doc !== 0));
    assert.ok(hits.some((h) => h.doc === 1 && h.resemblance > 0.8));
  });
}

test('sweeps merged incrementally equal clustering everything at once; identical documents short-cut', () => {
  const set = columnsFromSets(corpus.sets, { kind: 'min', s: 128 });
  const batch = nearDuplicates(set, { commonCap: 100000 }).clusters;
  const batchParts: number[][] = [];
  for (let i = 0; i < batch.count; i++) batchParts.push(Array.from(batch.membersOf(i)));
  for (let round = 0; round < 3; round++) {
    const order = rng.shuffle(Array.from({ length: N }, (_, i) => i));
    const cuts = [0, Math.floor(N / 3), Math.floor((2 * N) / 3) + round, N];
    const index = new ResembleIndex(set.params, { commonCap: 100000 });
    let ids: number[] = [];
    let identical = 0;
    for (let s = 0; s < 3; s++) {
      const part = order.slice(cuts[s], cuts[s + 1]);
      const r = index.insertMany(subset(set, part), { keys: part.map((d) => urls[d]) });
      assert.is(r.first, ids.length);
      ids = ids.concat(part);
      identical += r.identical;
    }
    assert.equal(partitionOf(index.clusters(), (d) => ids[d]), partitionOf(batchParts));
    // Each identical copy whose original came in an earlier sweep was short-cut.
    let expected = 0;
    const sweepOf = new Map<number, number>();
    order.forEach((d, i) => sweepOf.set(d, i < cuts[1] ? 0 : i < cuts[2] ? 1 : 2));
    for (let d = 0; d < N; d++) {
      const same = [...Array(N).keys()].filter((e) => e !== d && corpus.identicalTo[e] === corpus.identicalTo[d]);
      if (same.some((e) => sweepOf.get(e)! < sweepOf.get(d)!)) expected++;
    }
    assert.is(identical, expected);
    assert.ok(expected > 0 || round > 0);
  }
});

test('URL ↔ DocId ↔ cluster maps and lost and found across sweeps', () => {
  const spec: ColumnSpec = { kind: 'mod', mLog2: 1 };
  const a = randomSet(rng, 600), b = randomSet(rng, 600);
  const sweep1 = columnsFromSets([a, b], spec);
  const index = indexed(sweep1, { keys: ['http://old.example/a', 'http://x.example/b'], dates: ['1997-01-10T00:00:00Z', '1997-01-10T00:00:00Z'] });
  // The page at /a moved to a new host and changed a little; /b now serves something else.
  const moved = variant(rng, a, 0.8);
  const sweep2 = columnsFromSets([moved, randomSet(rng, 600)], spec);
  index.insertMany(sweep2, { keys: ['http://new.example/a2', 'http://x.example/b'], dates: ['1997-03-01T00:00:00Z', '1997-03-01T00:00:00Z'] });
  assert.is(index.newestUrl('http://old.example/a'), 'http://new.example/a2');
  assert.is(index.newestUrl('http://new.example/a2'), 'http://new.example/a2');
  assert.is(index.newestUrl('http://nowhere.example/'), undefined);
  assert.is(index.docIds('http://x.example/b')[0], 3, 'the newest document with the URL');
  assert.equal(index.docIds('http://x.example/b'), [3, 1]);
  assert.is(index.key(2), 'http://new.example/a2');
  assert.is(index.clusterOf(0), 0, 'the one cluster is number 0');
  assert.is(index.clusterOf(2), 0);
  assert.is(index.clusterOf('http://old.example/a'), 0, 'by key');
  assert.equal([index.clusterOf(1), index.clusterOf(3), index.clusterOf('http://x.example/b'), index.clusterOf('http://nowhere.example/')], [-1, -1, -1, -1], 'in no cluster, or unknown');
  assert.equal(index.clusters().map((m) => Array.from(m)), [[0, 2]]);
  assert.is(index.dateOf(2), '1997-03-01T00:00:00.000Z');
  // Removing the new copy: the old URL is its own newest again.
  index.remove('http://new.example/a2');
  assert.is(index.newestUrl('http://old.example/a'), 'http://old.example/a');
  assert.is(index.clusterOf(2), -1);
});

test('removal re-forms the cluster from the remaining members (a removed bridge splits a chain)', () => {
  const base = randomSet(rng, 800);
  const c1 = variant(rng, base, 0.62), c2 = variant(rng, c1, 0.62), c3 = variant(rng, c2, 0.62);
  const sets = [base, c1, c2, c3, randomSet(rng, 800)];
  const set = columnsFromSets(sets, { kind: 'mod', mLog2: 1 });
  const index = indexed(set);
  assert.equal(partitionOf(index.clusters()), ['0,1,2,3']);
  index.remove([1]);
  const rest = [0, 2, 3];
  const ref = nearDuplicates(subset(set, rest)).clusters;
  const refParts: number[][] = [];
  for (let i = 0; i < ref.count; i++) refParts.push(Array.from(ref.membersOf(i), (d) => rest[d]));
  assert.equal(partitionOf(index.clusters()), partitionOf(refParts));
  assert.equal(partitionOf(index.clusters()), ['2,3']);
  assert.is(index.liveCount, 4);
  assert.ok(index.query(index.sketch(2), { exclude: 2 }).every((h) => h.doc !== 1), 'removed documents are not returned');
});

test('documents added one at a time are found before and after the postings are rebuilt', () => {
  const spec: ColumnSpec = { kind: 'min', s: 64 };
  const set = columnsFromSets(corpus.sets, spec);
  const index = new ResembleIndex(set.params);
  for (let d = 0; d < 40; d++) {
    index.insertMany(subset(set, [d]));
    const hits = queryDoc(index, d, { threshold: 0 });
    const est = new SetEstimator(set);
    const expect = [];
    for (let e = 0; e < d; e++) { est.pair(d, e); if (est.out[3] > 0) expect.push(e); }
    assert.equal(hits.map((h) => h.doc).sort((a, b) => a - b), expect, `after adding ${d}`);
  }
  const batch = indexed(subset(set, [...Array(40).keys()]));
  assert.equal(partitionOf(index.clusters()), partitionOf(batch.clusters()));
});

test('save/load round trip; wrong version, corruption and other parameters are rejected', () => {
  const set = columnsFromSets(corpus.sets, { kind: 'mod', mLog2: 2 });
  const dates = corpus.sets.map((_, i) => new Date(Date.UTC(1997, 0, 1 + (i % 28))).toISOString());
  const index = indexed(set, { keys: urls, dates }, { threshold: 0.55, commonCap: 500 });
  index.remove([5]);
  const bytes = saveIndex(index);
  const back = loadIndex(bytes, { params: set.params });
  assert.is(back.size, index.size);
  assert.is(back.liveCount, index.liveCount);
  assert.equal(back.options, index.options);
  assert.equal(partitionOf(back.clusters()), partitionOf(index.clusters()));
  for (let d = 0; d < N; d += 7) {
    if (d === 5) continue;
    assert.equal(queryDoc(back, d), queryDoc(index, d));
    assert.is(back.key(d), urls[d]);
    assert.is(back.dateOf(d), index.dateOf(d));
    assert.is(back.newestUrl(urls[d]), index.newestUrl(urls[d]));
  }
  assert.ok(back.isRemoved(5));
  // Saving again gives the same bytes (deterministic format).
  assert.equal(saveIndex(back), bytes);
  // A loaded index takes new documents.
  const more = columnsFromSets([variant(rng, corpus.sets[0], 0.9)], { kind: 'mod', mLog2: 2 });
  back.insertMany(more, { keys: ['https://example.org/new'] });
  assert.ok(back.clusterOf(0) >= 0);
  assert.is(back.clusterOf(N), back.clusterOf(0));
  // Unaligned input is accepted (copied).
  const shifted = new Uint8Array(bytes.length + 1);
  shifted.set(bytes, 1);
  assert.is(loadIndex(shifted.subarray(1)).size, N);

  const code = (f: () => unknown, c: string, text?: RegExp) => assert.throws(f, (e: unknown) => e instanceof ResembleError && e.code === c && (!text || text.test(e.message)));
  const wrongVersion = bytes.slice(); wrongVersion[8] = 9;
  code(() => loadIndex(wrongVersion), 'E_FORMAT', /version 9/);
  const flipped = bytes.slice(); flipped[bytes.length >> 1] ^= 1;
  code(() => loadIndex(flipped), 'E_FORMAT', /checksum/);
  code(() => loadIndex(bytes.subarray(0, bytes.length - 100)), 'E_FORMAT');
  code(() => loadIndex(new TextEncoder().encode('not an index at all, just some text')), 'E_FORMAT', /magic/);
  code(() => loadIndex(bytes, { params: { ...set.params, m: 8 } }), 'E_PARAMS', /m 4 ≠ 8/);
  const other = columnsFromSets([randomSet(rng, 10)], { kind: 'min', s: 16 });
  code(() => back.insertMany(other), 'E_PARAMS');
  code(() => back.query({ params: other.params, values: other.values, cardinality: 10, modulusLog2: 0, tokens: 0 }), 'E_PARAMS');
});

test('options and arguments are validated', () => {
  const set = columnsFromSets([randomSet(rng, 10)], { kind: 'min', s: 16 });
  const code = (f: () => unknown, c = 'E_OPTION') => assert.throws(f, (e: unknown) => e instanceof ResembleError && e.code === c);
  code(() => new ResembleIndex(set.params, { threshold: 2 }));
  code(() => new ResembleIndex(set.params, { cap: 3 } as never));
  const index = indexed(set);
  code(() => index.insertMany(set, { keys: ['a', 'b'] }));
  code(() => queryDoc(index, 5));
  code(() => index.query(index.sketch(0), { limit: -1 }));
});

test.run();
