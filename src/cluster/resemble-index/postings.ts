// The index's shingle → documents postings, in two tiers (the LSM idea): sorted, partitioned lists
// for the documents up to `mainEnd`, and a hash table (DeltaPostings) for the documents added
// since. A lookup probes both; a new document goes into the hash table; once the table holds
// MERGE_FRACTION of the sorted lists' entries it is merged into them in one linear pass (dropping
// removed documents). The sorted tier thus grows by a constant factor between merges, so each
// entry is copied a constant number of times overall: keeping the postings up costs the same per
// document at any size (amortized), where rebuilding them per sweep cost O(n) each. What a lookup
// then costs is the lists it walks: prefix filtering (see `candidates`) leaves out the longest ones.
import { HI as HI_WORD, LO as LO_WORD, words } from '../../sketch/columns.js';
import { DeltaPostings } from '../delta-postings.js';
import type { Row, SetEstimator } from '../../sketch/row-estimates.js';
import { buildPostings, findList, type PostingLists } from '../postings.js';
import type { IndexStore } from './store.js';

/** The hash tier is merged into the sorted one when its entries pass this fraction of the sorted ones… */
const MERGE_FRACTION = 0.5;
/** …and this many (below it, merging would cost more than it saves). */
const MIN_DELTA_ENTRIES = 1 << 16;

// Word positions as module constants: imported bindings are slower to read in hot loops.
const HI = HI_WORD, LO = LO_WORD;

/** What a candidate scan looks at (see `IndexPostings.candidates`). */
export interface CandidateScan {
  cap: number;
  exclude: number;
  below: number;
  threshold: number;
  containment: number | undefined;
  /** Documents not worth estimating (already joined). */
  skip?: (doc: number) => boolean;
  /** Visit by resemblance bound, highest first (top-k). */
  byBound?: boolean;
}

/** The postings of a store's documents, sorted tier and hash tier. */
export class IndexPostings {
  /** Sorted postings of documents [0, mainEnd); the hash tier holds [mainEnd, deltaEnd); later ones are not in the postings yet. */
  main?: PostingLists;
  mainEnd = 0;
  /** Documents removed since the sorted postings were built (skipped in lookups until merged out). */
  staleRemovals = 0;
  private delta = new DeltaPostings();
  private deltaEnd = 0;
  private counter: Uint32Array = new Uint32Array(0);
  private touched: Uint32Array = new Uint32Array(0);

  /** Takes the store whose documents they index. */
  constructor(private readonly store: IndexStore) {}

  /** Takes sorted postings loaded from a file, the documents they cover and the removals since; adopts them. */
  adopt(main: PostingLists | undefined, mainEnd: number, staleRemovals: number): void {
    this.main = main;
    this.mainEnd = this.deltaEnd = main ? mainEnd : 0;
    this.staleRemovals = staleRemovals;
  }

  /**
   * Takes a DocId bound; brings documents below it into the postings: into the hash tier, or, once
   * that would pass MERGE_FRACTION of the sorted tier, everything into the sorted tier in one merge.
   */
  indexUpTo(upTo: number): void {
    if (this.deltaEnd >= upTo) return;
    const s = this.store;
    const sorted = this.main ? this.main.docs.length : 0;
    const entries = this.delta.entries + s.offsets[upTo] - s.offsets[this.deltaEnd];
    if (entries > Math.max(MIN_DELTA_ENTRIES, sorted * MERGE_FRACTION)) { this.merge(upTo); return; }
    const w = words(s.values);
    for (let d = this.deltaEnd; d < upTo; d++) if (!s.removed[d]) this.delta.add(d, w, s.offsets[d], s.offsets[d + 1]);
    this.deltaEnd = upTo;
  }

  /** Takes a DocId bound; merges the hash tier and documents below it into the sorted tier, leaving removed documents out. */
  private merge(upTo: number): void {
    const s = this.store;
    let k = 0;
    for (let d = this.mainEnd; d < upTo; d++) if (!s.removed[d]) k++;
    const docs = new Uint32Array(k);
    k = 0;
    for (let d = this.mainEnd; d < upTo; d++) if (!s.removed[d]) docs[k++] = d;
    this.main = buildPostings(s.values, s.offsets, {
      cap: 0x7fffffff, keepSingletons: true, keepKeys: true, docs, base: this.main, dropBase: this.staleRemovals > 0 ? s.removed : undefined,
    });
    this.mainEnd = this.deltaEnd = upTo;
    this.delta.clear();
    this.staleRemovals = 0;
  }

  /** Merges every document into the sorted postings, leaving removed ones out (saving does this first). */
  compact(): void {
    if (!this.main || this.mainEnd < this.store.n || this.staleRemovals > 0) this.merge(this.store.n);
  }

  /**
   * Calls `found(doc)` for every live document sharing a value with `row` (values held by more
   * than `cap` documents, as the postings count them, skipped) among those below `below`, after
   * estimating it into `est.out`; the postings must cover [0, below). Without a containment
   * policy (and for MIN_s and MOD sketches) two exact filters leave out documents that could
   * never reach `threshold`, before their lists are walked or their sketches compared:
   *  - an estimate r = x / n ≥ t needs x ≥ t·|Q| shared values (n ≥ |Q| for both kinds), so a
   *    document reaching t shares at least k of the query's values and is in one of any
   *    |Q| − k + 1 of its lists: only the shortest ones are walked (prefix filtering, as in
   *    all-pairs similarity joins); boilerplate values, whose lists grow with the crawl, are not;
   *  - then r ≤ shared / max(|Q|, |D|) for MIN_s (the union's s smallest hold the longer sketch)
   *    and ≤ x / (|Q| + |D| − x) for MOD, with shared bounded by the lists walked plus those not.
   * With `byBound`, documents are visited by that bound, highest first, and `found` may return a
   * floor: the scan stops at the first bound below it (top-k queries stop early, exactly).
   */
  candidates(row: Row, est: SetEstimator, o: CandidateScan, found: (doc: number) => number | void): void {
    const { cap, exclude, below, threshold, containment } = o;
    const main = this.main, delta = this.delta;
    const n = this.store.n;
    if (this.counter.length < n) { this.counter = new Uint32Array(Math.max(n, this.counter.length * 2)); this.touched = new Uint32Array(this.counter.length); }
    const counter = this.counter, removed = this.store.removed, touched = this.touched;
    let t = 0;
    const mDocs = main?.docs, mStart = main?.listStart;
    const dDoc = delta.doc, dNext = delta.next, dHead = delta.head, dCount = delta.count;
    const probeDelta = delta.entries > 0;
    const lenQ = row.end - row.start;
    // Each value's list: main range [ls, le), delta slot, total length; ordered shortest first.
    const ls = new Uint32Array(lenQ), le = new Uint32Array(lenQ), slots = new Int32Array(lenQ), order = new Float64Array(lenQ);
    let nonEmptyLists = 0;
    for (let i = 0; i < lenQ; i++) {
      const j = row.start + i;
      const hi = row.w[2 * j + HI], lo = row.w[2 * j + LO];
      if (main) {
        const l = findList(main, hi, lo);
        if (l >= 0) { ls[i] = mStart![l]; le[i] = mStart![l + 1]; }
      }
      const slot = probeDelta ? delta.find(hi, lo) : -1;
      slots[i] = slot;
      const len = le[i] - ls[i] + (slot >= 0 ? dCount[slot] : 0);
      if (len > 0) nonEmptyLists++;
      order[i] = len * 2097152 + i; // lists of one query row number fewer than 2^21
    }
    order.sort();
    const kind = this.store.params.kind;
    const prune = containment === undefined && threshold > 0 && kind !== 'adaptive' && lenQ > 0;
    // k: the fewest shared values whose ratio to |Q| reaches the threshold (as floating point divides).
    let k = 0;
    if (prune) {
      k = Math.max(1, Math.ceil(threshold * lenQ));
      while (k > 1 && (k - 1) / lenQ >= threshold) k--;
      while (k <= lenQ && k / lenQ < threshold) k++;
    }
    const walk = prune ? Math.max(0, lenQ - k + 1) : lenQ;
    let walked = 0;
    for (let r = 0; r < walk && r < lenQ; r++) {
      const i = order[r] % 2097152;
      const len = Math.floor(order[r] / 2097152);
      if (len === 0) continue;
      if (len > cap) break; // the rest are as long or longer
      walked++;
      for (let q = ls[i], e = le[i]; q < e; q++) {
        const d = mDocs![q];
        if (d >= below || removed[d] || d === exclude) continue;
        if (counter[d]++ === 0) touched[t++] = d;
      }
      if (slots[i] >= 0) {
        for (let x = dHead[slots[i]]; x >= 0; x = dNext[x]) {
          const d = dDoc[x];
          if (d >= below || removed[d] || d === exclude) continue;
          if (counter[d]++ === 0) touched[t++] = d;
        }
      }
    }
    const list = touched.subarray(0, t).sort();
    const offsets = this.store.offsets;
    const unwalked = nonEmptyLists - walked;
    const bound = new Float64Array(prune && o.byBound ? t : 0);
    let kept = 0;
    for (let i = 0; i < t; i++) {
      const d = list[i];
      const shared = counter[d] + unwalked;
      counter[d] = 0;
      if (o.skip?.(d)) continue;
      let ub = 1;
      if (prune) {
        const lenD = offsets[d + 1] - offsets[d];
        if (kind === 'min') ub = shared / Math.max(lenQ, lenD);
        else { const x = Math.min(shared, lenQ, lenD); ub = x / Math.max(1, lenQ + lenD - x); }
        if (ub < threshold) continue;
      }
      if (bound.length) { list[kept] = d; bound[kept++] = ub; continue; }
      est.against(row, d);
      found(d);
    }
    if (!bound.length || kept === 0) return;
    // Highest bound first, DocId ascending among equal bounds (the order hits rank in).
    const idx = Uint32Array.from({ length: kept }, (_, i) => i).sort((a, b) => bound[b] - bound[a] || list[a] - list[b]);
    let floor = -1;
    for (const i of idx) {
      if (bound[i] < floor) break;
      est.against(row, list[i]);
      const f = found(list[i]);
      if (typeof f === 'number') floor = f;
    }
  }
}
