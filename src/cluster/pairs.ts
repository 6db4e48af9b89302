// The paper's third phase: every pair of documents sharing a (non-common) shingle, with the
// number of shingles they share. Instead of expanding <ID, ID, 1> triplets and sorting them,
// each document a walks the lists it is in and counts, in a dense counter, the documents after
// it in those lists: the same counts, with memory linear in the postings instead of in the pairs.
import type { PostingLists } from './postings.js';
import { grow } from './postings.js';
import { walkColumns, walkRange, type WalkColumns } from './walk.js';

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
  private readonly columns: WalkColumns;
  private readonly counter: Uint32Array;
  private readonly touched: Uint32Array;

  constructor(post: PostingLists, private readonly nDocs: number) {
    this.columns = walkColumns(post, nDocs);
    this.counter = new Uint32Array(nDocs);
    this.touched = new Uint32Array(nDocs);
  }

  /**
   * Visits the pairs of the next documents (as forEachCandidate) until at least `budget` pairs
   * were visited in this call or every document is done (a document's pairs are never split).
   * Returns true while documents remain.
   */
  next(visit: (a: number, b: number, hits: number) => void, budget: number): boolean {
    const r = walkRange(this.columns, this.a, this.nDocs, this.counter, this.touched, visit, budget);
    this.a = r.next;
    this.pairs += r.pairs;
    return this.a < this.nDocs;
  }
}
