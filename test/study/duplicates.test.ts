import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { columnsFromFingerprints } from '../../src/study/columns.js';
import { findDuplicates, type Clustering } from '../../src/study/duplicates.js';
import { clustersReference, paperMatch } from '../../src/study/reference.js';

/** Clusters of a `Clustering` as sorted arrays of member positions, sorted by first member. */
function groups(c: Clustering, members?: Uint32Array): number[][] {
  const out: number[][] = Array.from({ length: c.clusters }, () => []);
  c.label.forEach((l, p) => { if (l >= 0) out[l].push(members ? members[p] : p); });
  return out.sort((a, b) => a[0] - b[0]);
}

/** A collection drawn from few paragraphs, with planted duplicates (shuffled copies) and edits. */
const collection = fc.integer({ min: 1, max: 40 }).chain((n) =>
  fc.array(
    fc.oneof(
      fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 0, maxLength: 7 }).map((ps) => ({ fresh: ps })),
      fc.record({ copy: fc.nat(), edits: fc.array(fc.tuple(fc.nat(10), fc.integer({ min: 0, max: 12 })), { maxLength: 2 }), shuffle: fc.nat() }),
    ),
    { minLength: n, maxLength: n },
  ).map((specs) => {
    const docs: bigint[][] = [];
    for (const s of specs) {
      if ('fresh' in s || docs.length === 0) {
        docs.push(('fresh' in s ? s.fresh : [1, 2]).map(BigInt));
        continue;
      }
      const base = [...docs[s.copy % docs.length]];
      for (const [at, v] of s.edits) if (base.length) base[at % base.length] = BigInt(v);
      const k = base.length ? s.shuffle % base.length : 0;
      docs.push([...base.slice(k), ...base.slice(0, k)]);
    }
    return docs;
  }),
);

test('exact and near-duplicate clusters equal the brute-force reference for any number of parts', () => {
  fc.assert(
    fc.property(collection, fc.integer({ min: 1, max: 9 }), (docs, m) => {
      const cols = columnsFromFingerprints(docs);
      const r = findDuplicates(cols, undefined, { parts: Math.min(m, docs.length), near: [90, 70, 50] });
      assert.equal(groups(r.exact), clustersReference(docs, 100));
      for (const c of r.near) assert.equal(groups(c), clustersReference(docs, c.percent));
      assert.is(r.exact.duplicates, r.exact.clustered - r.exact.clusters);
    }),
    { seed: 7, numRuns: 150 },
  );
});

test('odd thresholds (rounding in p·n/100) still equal the reference', () => {
  fc.assert(
    fc.property(collection, fc.subarray([12.5, 33.3, 66.7, 75, 99.9, 100], { minLength: 1 }), fc.integer({ min: 1, max: 5 }), (docs, near, m) => {
      const r = findDuplicates(columnsFromFingerprints(docs), undefined, { parts: Math.min(m, docs.length), near });
      for (const c of r.near) assert.equal(groups(c), clustersReference(docs, c.percent));
    }),
    { seed: 8, numRuns: 100 },
  );
});

test('a subset of members is clustered on its own', () => {
  fc.assert(
    fc.property(collection, fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }), (docs, pick) => {
      const cols = columnsFromFingerprints(docs);
      const members = Uint32Array.from(docs.map((_, i) => i).filter((i) => pick[i]));
      const r = findDuplicates(cols, members, { near: [60] });
      const sub = [...members].map((i) => docs[i]);
      const map = (gs: number[][]) => gs.map((g) => g.map((i) => members[i]));
      assert.equal(groups(r.exact, members), map(clustersReference(sub, 100)));
      assert.equal(groups(r.near[0], members), map(clustersReference(sub, 60)));
    }),
    { seed: 11, numRuns: 80 },
  );
});

test('the paper\'s false match (e d e d against e d d d) is not a duplicate here', () => {
  const [a, b, c, d, e] = [1n, 2n, 3n, 4n, 5n];
  const docs = [[a, b, c, d], [e, d, d, d], [e, d, e, d], [d, e, d, e]];
  // The paper's test matches them: same count, every paragraph of the probe found in the other.
  assert.ok(paperMatch(docs[2], docs[1]));
  const r = findDuplicates(columnsFromFingerprints(docs), undefined, { near: [] });
  // Only the two `e d e d` documents (same multiset, other order) are duplicates.
  assert.equal(groups(r.exact), [[2, 3]]);
  assert.equal(clustersReference(docs, 100), [[2, 3]]);
});

test('Figure 1: twenty documents in ten parts; a cluster is found whole in the step of its first member', () => {
  const docs: bigint[][] = Array.from({ length: 20 }, (_, i) => [BigInt(100 + i), BigInt(200 + i), BigInt(300 + i), BigInt(400 + i)]);
  docs[18] = [...docs[1]]; // document 19 duplicates document 2
  docs[9] = [...docs[4]].reverse(); // a cluster of three whose first member is in S_2
  docs[15] = [...docs[4]];
  const r = findDuplicates(columnsFromFingerprints(docs), undefined, { parts: 10, near: [] });
  assert.equal(r.growth.map((g) => g.documents), [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]);
  assert.equal(r.growth.map((g) => g.duplicates), [1, 1, 3, 3, 3, 3, 3, 3, 3, 3]);
  assert.equal(r.growth.map((g) => g.clusters), [1, 1, 2, 2, 2, 2, 2, 2, 2, 2]);
  assert.equal(groups(r.exact), [[1, 18], [4, 9, 15]]);
  const partial = findDuplicates(columnsFromFingerprints(docs), undefined, { parts: 10, near: [], stopAfter: 2 });
  assert.is(partial.iterations, 2);
  assert.equal(groups(partial.exact), [[1, 18]]);
});

test('growth ends at the final clusters whatever m, and never shrinks', () => {
  fc.assert(
    fc.property(collection, fc.integer({ min: 1, max: 9 }), (docs, m) => {
      const cols = columnsFromFingerprints(docs);
      const parts = Math.min(m, docs.length);
      const r = findDuplicates(cols, undefined, { parts, near: [] });
      assert.is(r.growth.length, parts);
      const last = r.growth[parts - 1];
      assert.is(last.documents, docs.length);
      assert.is(last.clusters, r.exact.clusters);
      assert.is(last.duplicates, r.exact.duplicates);
      for (let i = 1; i < parts; i++) {
        assert.ok(r.growth[i].duplicates >= r.growth[i - 1].duplicates);
        assert.ok(r.growth[i].documents > r.growth[i - 1].documents);
      }
    }),
    { seed: 3, numRuns: 100 },
  );
});

test('empty documents never match; options are checked', () => {
  const r = findDuplicates(columnsFromFingerprints([[], [], [1n], [1n]]), undefined, {});
  assert.equal(groups(r.exact), [[2, 3]]);
  const cols = columnsFromFingerprints([[1n], [1n]]);
  assert.throws(() => findDuplicates(cols, undefined, { parts: 3 }), /expected integer 1\.\.2 for parts, got 3/);
  assert.throws(() => findDuplicates(cols, undefined, { near: [0] }), /near/);
  assert.throws(() => findDuplicates(cols, undefined, { m: 2 } as never), /unknown option "m"/);
});

test.run();
