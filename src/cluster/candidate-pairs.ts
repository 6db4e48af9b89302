// The candidate step of the in-memory clustering on one thread: pairs sharing enough keys, their
// estimates, and the tests that drop a pair before it is estimated. The online index's clusters
// take it alone (src/cluster/resemble-index/clusters.ts); near-duplicates.ts runs it, or its pool
// twin, for nearDuplicates.
import type { ClusterColumns, RowColumns } from '../sketch/columns.js';
import { C_AB, C_BA, MinPairBatch, SHARED, SetEstimator } from '../sketch/row-estimates.js';
import { forEachCandidate, PairTableBuilder, type PairTable } from './pairs.js';
import { buildPostings, type PostingLists } from './postings.js';

/** Candidate pairs with their estimates, and what the candidate step counted. */
export interface CandidatePairs {
  pairs: PairTable;
  candidates: number;
  postings: number;
  ignoredShingles: number;
  ignoredPostings: number;
}

/**
 * Takes the keys, the keys a pair must share and the short-union bound; returns the test of a pair
 * sharing `hits` keys: at least minHits, or (prefix keys of two short rows) any key when the two
 * rows' keys number fewer than shortUnion together: their keys are then every non-common value of
 * both, and the binomial bound of prefix.ts, which needs a union of a whole prefix, does not hold.
 */
function candidateTest(keys: { offsets: Uint32Array }, minHits: number, shortUnion: number): (a: number, b: number, hits: number) => boolean {
  const ko = keys.offsets;
  if (minHits <= 1) return () => true;
  return (a, b, hits) => hits >= minHits || (ko[a + 1] - ko[a]) + (ko[b + 1] - ko[b]) - hits < shortUnion;
}

/**
 * Pairs among `docs` (ascending, non-empty rows) sharing at least `minHits` keys of `keys` (the
 * sketch values themselves, prefixes of them, super-shingles or band keys) held by at most `cap`
 * of them, or any key when their keys number fewer than `shortUnion` together (see
 * candidateTest), with estimates from the sketches; pairs whose resemblance and containment both
 * ways are below `floor` are dropped. `candidates` counts the pairs that pass that test.
 */
export function candidatePairs(set: ClusterColumns, keys: { values: BigUint64Array; offsets: Uint32Array }, docs: Uint32Array, cap: number, floor: number, minHits = 1, shortUnion = 0): CandidatePairs {
  const post = postingsOf(set, keys, docs, cap);
  const worth = worthFilter(set, post, keys.values === set.values, floor);
  const est = new SetEstimator(set);
  const out = est.out;
  const table = new PairTableBuilder();
  const keep = (a: number, b: number, hits: number, shared: number, r: number, cab: number, cba: number) => {
    if (Math.max(cab, cba, r) >= floor) table.push(a, b, hits, shared, r, cab, cba);
  };
  const candidate = candidateTest(keys, minHits, shortUnion);
  // MIN_s pairs are estimated in batches on the kernel; other kinds (and before init) here
  let candidates = 0;
  if (MinPairBatch.run(set, keep, (batch) => forEachCandidate(post, set.size, (a, b, hits) => {
    if (!candidate(a, b, hits)) return;
    candidates++;
    if (worth(a, b, hits)) batch.push(a, b, hits);
  })) === undefined) {
    forEachCandidate(post, set.size, (a, b, hits) => {
      if (!candidate(a, b, hits)) return;
      candidates++;
      if (!worth(a, b, hits)) return;
      const r = est.pair(a, b);
      keep(a, b, hits, out[SHARED], r, out[C_AB], out[C_BA]);
    });
  }
  return { pairs: table.finish(), candidates, postings: post.docs.length, ignoredShingles: post.ignoredShingles, ignoredPostings: post.ignoredPostings };
}

/** The postings of the candidate step: `docs`' keys held by at most `cap` of them. */
export function postingsOf(set: ClusterColumns, keys: { values: BigUint64Array; offsets: Uint32Array }, docs: Uint32Array, cap: number): PostingLists {
  return buildPostings(keys.values, keys.offsets, { cap, keepSingletons: false, keepKeys: false, docs, countIgnored: keys.values === set.values });
}

/** Takes the set, its postings and the floor; returns a test that is false when the counts already show a pair under the floor (no estimate needed). */
function worthFilter(set: ClusterColumns, post: PostingLists, own: boolean, floor: number): (a: number, b: number, hits: number) => boolean {
  const kind = set.params.kind, s = set.params.s;
  const off = set.offsets, ignored = post.ignoredPerDoc;
  const mlog2 = kind === 'adaptive' ? set.modulusLog2 : undefined;
  return (a, b, hits) => {
    if (own && floor > 0 && ignored && !(mlog2 && mlog2[a] !== mlog2[b])) {
      // Containment ≥ resemblance, and it is bounded by the counts (shared ≤ hits + common values
      // of the smaller side) except for a full MIN_s sketch, whose τ-based estimate has no such bound.
      const la = off[a + 1] - off[a], lb = off[b + 1] - off[b];
      if (kind !== 'min' || (la < s && lb < s)) {
        const x = hits + Math.min(ignored[a], ignored[b]);
        if (x / Math.max(1, Math.min(la, lb)) < floor) return false;
      }
    }
    return true;
  };
}

/** The documents of `list` whose sketch row is not empty. */
export function nonEmpty(set: Pick<RowColumns, 'offsets'>, list: Uint32Array): Uint32Array {
  let k = 0;
  for (const d of list) if (set.offsets[d + 1] > set.offsets[d]) k++;
  const docs = new Uint32Array(k);
  k = 0;
  for (const d of list) if (set.offsets[d + 1] > set.offsets[d]) docs[k++] = d;
  return docs;
}
