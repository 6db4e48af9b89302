// The index built online (one document at a time, queries in between, removals) against the
// index built in one batch and against clustering everything at once: the same clusters and the
// same query hits, on generated corpora (through several merges of the hash tier into the sorted
// postings) and on the bundled sample crawl. The postings merge against building from scratch.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fileURLToPath } from 'node:url';
import { ResembleIndex } from '../../src/cluster/resemble-index/resemble-index.js';
import { loadIndex, saveIndex } from '../../src/cluster/resemble-index/resemble-index.js';
import { nearDuplicates } from '../../src/cluster/near-duplicates.js';
import { buildPostings, type PostingLists } from '../../src/cluster/postings.js';
import { SetEstimator } from '../../src/sketch/row-estimates.js';
import type { ClusterColumns } from '../../src/sketch/columns.js';
import { utf8Bytes } from '../../src/graph/document.js';
import { loadCrawl } from '../../src/io/crawl.js';
import { init, sketchMany } from '../../src/index.js';
import { SketchSet } from '../../src/advanced.js';
import { Rng, columnsFromSets, indexed, permute, queryDoc, randomSet, variant, type ColumnSpec } from './helpers.js';

await init();
const rng = new Rng(4242);

/** Clusters as sorted strings of sorted members (mapped through `map`). */
function partition(lists: Iterable<ArrayLike<number>>, map: (d: number) => number = (d) => d): string[] {
  return Array.from(lists, (m) => Array.from(m, map).sort((a, b) => a - b).join(',')).sort();
}

/** Query hits with the cluster named by its smallest member (a union-find root depends on the order of unions). */
function hits(index: ResembleIndex, d: number) {
  return queryDoc(index, d);
}

function batchPartition(set: ClusterColumns, commonCap: number): string[] {
  const c = nearDuplicates(set, { commonCap }).clusters;
  const parts: number[][] = [];
  for (let i = 0; i < c.count; i++) parts.push(Array.from(c.membersOf(i)));
  return partition(parts);
}

/** Families of near-duplicates (resemblance 0.3–0.95 to a base), exact copies and loners: enough documents to pass several merges. */
function corpus(n: number, size: number): bigint[][] {
  const sets: bigint[][] = [];
  while (sets.length < n) {
    const base = randomSet(rng, size);
    sets.push(base);
    const r = rng.next();
    if (r < 0.4) for (let k = 0; k < 1 + rng.int(4); k++) sets.push(variant(rng, base, 0.3 + 0.65 * rng.next()));
    else if (r < 0.55) sets.push(base.slice());
  }
  return rng.shuffle(sets.slice(0, n));
}

/** The lists of a PostingLists as key → docs strings (order-free: partitions may differ). */
function listsOf(p: PostingLists): Map<string, string> {
  const out = new Map<string, string>();
  for (let l = 0; l < p.lists; l++) out.set(`${p.keyHi![l]}:${p.keyLo![l]}`, Array.from(p.docs.subarray(p.listStart[l], p.listStart[l + 1])).join(','));
  return out;
}

test('postings merged into a base equal postings built at once (partitions split, dropped documents left out)', () => {
  const set = columnsFromSets(corpus(600, 300), { kind: 'min', s: 64 });
  const n = set.size;
  const all = (docs?: Uint32Array) => buildPostings(set.values, set.offsets, { cap: 0x7fffffff, keepSingletons: true, keepKeys: true, docs, partitionEntries: 256 });
  const range = (a: number, b: number, skip?: Uint8Array) => Uint32Array.from({ length: b - a }, (_, i) => a + i).filter((d) => !skip?.[d]);
  // Three merges; the first base is small (few partitions), so later merges split its partitions.
  let post = buildPostings(set.values, set.offsets, { cap: 0x7fffffff, keepSingletons: true, keepKeys: true, docs: range(0, 50), partitionEntries: 256 });
  const drop = new Uint8Array(n);
  for (let d = 0; d < n; d += 7) drop[d] = 1;
  const bitsBefore = post.partitionBits;
  post = buildPostings(set.values, set.offsets, { cap: 0x7fffffff, keepSingletons: true, keepKeys: true, docs: range(50, 300), base: post, partitionEntries: 256 });
  assert.ok(post.partitionBits > bitsBefore, 'the merge split the base partitions');
  post = buildPostings(set.values, set.offsets, { cap: 0x7fffffff, keepSingletons: true, keepKeys: true, docs: range(300, n, drop), base: post, dropBase: drop, partitionEntries: 256 });
  const want = all(range(0, n, drop));
  assert.equal(post.partitionBits, want.partitionBits);
  assert.equal(listsOf(post), listsOf(want));
  // Lists are in key order within each partition, so lookups find every key.
  for (let p = 0; p + 1 < post.partStart.length; p++) {
    for (let l = post.partStart[p] + 1; l < post.partStart[p + 1]; l++) {
      assert.ok(post.keyHi![l - 1] < post.keyHi![l] || (post.keyHi![l - 1] === post.keyHi![l] && post.keyLo![l - 1] < post.keyLo![l]));
    }
  }
});

for (const spec of [{ kind: 'min', s: 32 }, { kind: 'mod', mLog2: 2 }, { kind: 'adaptive' }] as ColumnSpec[]) {
  test(`${spec.kind}: online query-then-insert equals the batch index and batch clustering (through several merges)`, () => {
    const sets = corpus(spec.kind === 'min' ? 4000 : 1500, 400);
    const set = columnsFromSets(sets, spec);
    const n = set.size;
    const urls = sets.map((_, i) => `k${i}`);
    const batch = indexed(set, { keys: urls }, { commonCap: 100000 });
    const online = new ResembleIndex(set.params, { commonCap: 100000 });
    const one = (d: number) => permute(set, [d]);
    const est = new SetEstimator(set);
    let checked = 0;
    for (let d = 0; d < n; d++) {
      // Before inserting d: what the online index answers is what brute force over 0..d-1 says.
      if (d % 97 === 0) {
        const q = { params: set.params, values: set.values.subarray(set.offsets[d], set.offsets[d + 1]), cardinality: set.cardinality[d], modulusLog2: set.modulusLog2?.[d] ?? 0, tokens: 0 };
        const hits = online.query(q, { threshold: 0.3 });
        const want: number[] = [];
        for (let e = 0; e < d; e++) { const r = est.pair(d, e); if (est.out[3] > 0 && r >= 0.3) want.push(e); }
        assert.equal(hits.map((h) => h.doc).sort((a, b) => a - b), want, `query before inserting ${d}`);
        // A top-k query stops its scan early; it must return the first k of the full answer.
        for (const limit of [1, 3]) {
          for (const threshold of [0.3, 0.5]) assert.equal(online.query(q, { threshold, limit }), online.query(q, { threshold }).slice(0, limit), `top ${limit} at ${threshold}`);
        }
        checked++;
      }
      online.insert(urls[d], one(d));
    }
    assert.ok(checked > 10);
    assert.equal(partition(online.clusters()), partition(batch.clusters()));
    assert.equal(partition(online.clusters()), batchPartition(set, 100000));
    for (let d = 0; d < n; d += 13) assert.equal(hits(online, d), hits(batch, d), `queryDoc ${d}`);
  });
}

test('removals between inserts: the online index equals a batch index of the survivors', () => {
  const sets = corpus(2500, 300);
  const spec: ColumnSpec = { kind: 'min', s: 32 };
  const set = columnsFromSets(sets, spec);
  const online = new ResembleIndex(set.params, { commonCap: 100000 });
  const removed = new Set<number>();
  for (let d = 0; d < set.size; d++) {
    online.insert(`k${d}`, permute(set, [d]));
    if (d % 5 === 4) {
      const victim = rng.int(d + 1);
      if (!removed.has(victim)) { online.remove(`k${victim}`); removed.add(victim); }
    }
  }
  const live = Array.from({ length: set.size }, (_, i) => i).filter((d) => !removed.has(d));
  assert.ok(removed.size > 200);
  const survivors = permute(set, live);
  assert.equal(partition(online.clusters()), batchPartition(survivors, 100000).map((p) => p.split(',').map((i) => live[+i]).sort((a, b) => a - b).join(',')).sort());
  // Queries never return removed documents and equal a batch index of the survivors.
  const batch = indexed(survivors, undefined, { commonCap: 100000 });
  for (let i = 0; i < live.length; i += 17) {
    const a = queryDoc(online, live[i]).map((h) => [h.doc, h.resemblance]);
    const b = queryDoc(batch, i).map((h) => [live[h.doc], h.resemblance]);
    assert.equal(a, b, `queryDoc ${live[i]}`);
  }
  // And after a save and load (which merges everything and drops removed documents from the postings).
  const back = loadIndex(saveIndex(online));
  assert.equal(partition(back.clusters()), partition(online.clusters()));
  for (let i = 0; i < live.length; i += 31) assert.equal(queryDoc(back, live[i]), queryDoc(online, live[i]));
});

test('an identical copy of a removed document short-cuts to a live equivalent, or to nothing', () => {
  const a = randomSet(rng, 200);
  const set = columnsFromSets([a, a.slice(), a.slice(), randomSet(rng, 200)], { kind: 'mod', mLog2: 1 });
  const index = new ResembleIndex(set.params);
  index.insertMany(permute(set, [0, 1, 3]), { keys: ['a0', 'a1', 'b'] });
  index.remove('a0');
  const r = index.insertMany(permute(set, [2]), { keys: ['a2'] });
  assert.is(r.identical, 1, 'joined a1 through the fingerprint map');
  assert.ok(index.clusterOf(1) >= 0);
  assert.is(index.clusterOf(3), index.clusterOf(1));
  index.remove('a1'); index.remove('a2');
  const r2 = index.insertMany(permute(set, [0]), { keys: ['a3'] });
  assert.is(r2.identical, 0, 'no live equivalent left');
  assert.is(index.clusterOf(4), -1, 'in no cluster');
  const r3 = index.insertMany(permute(set, [1]), { keys: ['a4'] });
  assert.is(r3.identical, 1, 'the new copy took the map entry over');
  assert.ok(index.clusterOf(4) >= 0);
  assert.is(index.clusterOf(5), index.clusterOf(4));
});

test('the sample crawl page by page: the online index equals the batch index (clusters and hits)', async () => {
  const crawl = await loadCrawl(fileURLToPath(new URL('../../sample/', import.meta.url)), { links: false });
  const set = sketchMany(crawl.documents.map(utf8Bytes));
  const urls = crawl.documents.map((d) => d.url);
  const batch = indexed(set, { keys: urls });
  const online = new ResembleIndex(set.params);
  let found = 0;
  for (let i = 0; i < set.size; i++) {
    const sk = set.get(i);
    if (online.query(sk, { limit: 1 }).length) found++;
    online.insert(urls[i], sk);
  }
  assert.ok(found > 200, `${found} pages had a near-duplicate already indexed`);
  assert.equal(partition(online.clusters()), partition(batch.clusters()));
  for (let d = 0; d < set.size; d++) assert.equal(hits(online, d), hits(batch, d));
  assert.equal(partition(batch.clusters()), batchPartition(set, 1000));
  // A Sketch is accepted wherever a one-row set is.
  const viaSketch = indexed(set.get(0));
  assert.is(viaSketch.size, 1);
  assert.equal(SketchSet.from([set.get(3)]).values, set.get(3).values);
});

test.run();
