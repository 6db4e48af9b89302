// The paper's third phase: every pair of documents sharing a (non-common) shingle, with the
// number of shingles they share. Instead of expanding <ID, ID, 1> triplets and sorting them,
// each document a walks the lists it is in and counts, in a dense counter, the documents after
// it in those lists: the same counts, with memory linear in the postings instead of in the pairs.
import type { PostingLists } from './postings.js';
import { grow } from './postings.js';

/** Candidate pairs with their estimates, as parallel columns (a < b). */
export interface PairTable {
  count: number;
  a: Uint32Array;
  b: Uint32Array;
  /** Keys shared in the candidate step: non-common shingles, super-shingles or LSH bands. */
  hits: Uint32Array;
  /** Sketch values shared (the shared-shingle count of the evidence). */
  shared: Uint32Array;
  resemblance: Float64Array;
  /** Estimated containment of a in b, and of b in a. */
  containmentAB: Float64Array;
  containmentBA: Float64Array;
}

/** Growable PairTable. */
export class PairTableBuilder {
  private cap = 1024;
  count = 0;
  a = new Uint32Array(this.cap);
  b = new Uint32Array(this.cap);
  hits = new Uint32Array(this.cap);
  shared = new Uint32Array(this.cap);
  resemblance = new Float64Array(this.cap);
  containmentAB = new Float64Array(this.cap);
  containmentBA = new Float64Array(this.cap);

  /** Appends one pair. */
  push(a: number, b: number, hits: number, shared: number, r: number, cab: number, cba: number): void {
    if (this.count === this.cap) {
      this.cap *= 2;
      this.a = grow(this.a, this.cap); this.b = grow(this.b, this.cap);
      this.hits = grow(this.hits, this.cap); this.shared = grow(this.shared, this.cap);
      this.resemblance = grow(this.resemblance, this.cap);
      this.containmentAB = grow(this.containmentAB, this.cap);
      this.containmentBA = grow(this.containmentBA, this.cap);
    }
    const i = this.count++;
    this.a[i] = a; this.b[i] = b; this.hits[i] = hits; this.shared[i] = shared;
    this.resemblance[i] = r; this.containmentAB[i] = cab; this.containmentBA[i] = cba;
  }

  /** The table (views trimmed to `count`). */
  finish(): PairTable {
    const n = this.count;
    return {
      count: n, a: this.a.subarray(0, n), b: this.b.subarray(0, n), hits: this.hits.subarray(0, n),
      shared: this.shared.subarray(0, n), resemblance: this.resemblance.subarray(0, n),
      containmentAB: this.containmentAB.subarray(0, n), containmentBA: this.containmentBA.subarray(0, n),
    };
  }
}

/**
 * The lists reordered by their first (smallest) document, with a start flag per posting (one
 * byte instead of a list id). Documents are walked in DocId order, so with the lists in that
 * order too the lists a document is in lie near those of its neighbours: memory is read nearly
 * in sequence instead of at random (measured 2× faster at 1M documents).
 */
function byFirstDocument(post: PostingLists, nDocs: number): { docs: Uint32Array; start: Uint8Array } {
  const { lists, listStart } = post;
  const src = post.docs, m = src.length;
  const firstCount = new Uint32Array(nDocs + 1);
  for (let l = 0; l < lists; l++) firstCount[src[listStart[l]] + 1]++;
  for (let d = 0; d < nDocs; d++) firstCount[d + 1] += firstCount[d];
  const rank = new Uint32Array(lists);
  for (let l = 0; l < lists; l++) rank[l] = firstCount[src[listStart[l]]]++;
  const at = new Uint32Array(lists + 1);
  for (let l = 0; l < lists; l++) at[rank[l] + 1] = listStart[l + 1] - listStart[l];
  for (let r = 0; r < lists; r++) at[r + 1] += at[r];
  const docs = new Uint32Array(m);
  const start = new Uint8Array(m + 1);
  for (let l = 0; l < lists; l++) {
    let q = at[rank[l]];
    start[q] = 1;
    for (let i = listStart[l], e = listStart[l + 1]; i < e; i++) docs[q++] = src[i];
  }
  start[m] = 1;
  return { docs, start };
}

/**
 * Calls `visit(a, b, hits)` once for every pair a < b of documents sharing at least one list,
 * with the number of lists they share; a ascending, then b ascending. Returns the pair count.
 */
export function forEachCandidate(post: PostingLists, nDocs: number, visit: (a: number, b: number, hits: number) => void): number {
  const walk = new CandidateWalk(post, nDocs);
  walk.next(visit, Infinity);
  return walk.pairs;
}

/**
 * `forEachCandidate` in steps: each `next` goes on from the document where the last one stopped,
 * so a caller can hand the pairs found so far to other threads between steps.
 */
export class CandidateWalk {
  /** Pairs visited so far. */
  pairs = 0;
  private a = 0;
  private readonly docs: Uint32Array;
  private readonly start: Uint8Array;
  private readonly pos: Uint32Array;
  private readonly posStart: Uint32Array;
  private readonly counter: Uint32Array;
  private readonly touched: Uint32Array;

  constructor(post: PostingLists, private readonly nDocs: number) {
    const { docs, start } = byFirstDocument(post, nDocs);
    const m = docs.length;
    const posStart = new Uint32Array(nDocs + 1);
    for (let q = 0; q < m; q++) posStart[docs[q] + 1]++;
    for (let d = 0; d < nDocs; d++) posStart[d + 1] += posStart[d];
    const pos = new Uint32Array(m);
    const cursor = posStart.slice(0, nDocs);
    for (let q = 0; q < m; q++) pos[cursor[docs[q]]++] = q;
    this.docs = docs; this.start = start; this.pos = pos; this.posStart = posStart;
    this.counter = new Uint32Array(nDocs);
    this.touched = new Uint32Array(nDocs);
  }

  /**
   * Visits the pairs of the next documents (as forEachCandidate) until at least `budget` pairs
   * were visited in this call or every document is done (a document's pairs are never split).
   * Returns true while documents remain.
   */
  next(visit: (a: number, b: number, hits: number) => void, budget: number): boolean {
    const { docs, start, pos, posStart, counter, touched, nDocs } = this;
    let a = this.a, visited = 0;
    for (; a < nDocs && visited < budget; a++) {
      const e = posStart[a + 1];
      let t = 0;
      for (let k = posStart[a]; k < e; k++) {
        for (let q = pos[k] + 1; start[q] === 0; q++) {
          const b = docs[q];
          if (b === a) continue; // a row with a repeated value; rows should be distinct
          if (counter[b]++ === 0) touched[t++] = b;
        }
      }
      if (t === 0) continue;
      // Few documents per row as a rule: insertion sort beats a typed-array sort call.
      if (t > 32) touched.subarray(0, t).sort();
      else {
        for (let i = 1; i < t; i++) {
          const v = touched[i];
          let j = i - 1;
          while (j >= 0 && touched[j] > v) { touched[j + 1] = touched[j]; j--; }
          touched[j + 1] = v;
        }
      }
      for (let i = 0; i < t; i++) {
        const b = touched[i];
        visit(a, b, counter[b]);
        counter[b] = 0;
      }
      visited += t;
    }
    this.a = a;
    this.pairs += visited;
    return a < nDocs;
  }
}
