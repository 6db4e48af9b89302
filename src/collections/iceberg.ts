import { buildPostings } from '../cluster/postings.js';
import { keyedColumns, sortKeyed } from '../cluster/radix-sort.js';

/** Page pairs with the number of values (chunks, sketch values) they share: parallel columns, a < b. */
export interface SharedPairs {
  readonly a: Uint32Array;
  readonly b: Uint32Array;
  readonly shared: Uint32Array;
  /** Values left out for being on more than `cap` pages, and their postings. */
  readonly ignoredValues: number;
  readonly ignoredPostings: number;
}

/** Options of `icebergPairs`. */
export interface IcebergOptions {
  /** Values on more pages than this are ignored (boilerplate lines, navigation bars): bounds the pairs per value at cap²/2. */
  cap: number;
  /** Keeps a pair given its pages and shared count (the iceberg threshold). */
  accept: (a: number, b: number, shared: number) => boolean;
  /** Only these pages (ascending); all when absent. */
  pages?: Uint32Array;
  /** Pair entries sorted at once (12 bytes each, twice); more pairs are counted in several passes over page ranges. Default 2^22. */
  passEntries?: number;
}

/**
 * The iceberg query of Section 3.2 (after Fang et al.): over the (value, page) table, find the page
 * pairs sharing at least a threshold of values. Takes CSR rows of distinct values per page; groups
 * them by value (the cluster module's postings, with its common-value cap), expands each group into
 * its page pairs and counts equal pairs after a radix sort. Pairs are produced in passes over
 * ranges of the first page so that memory stays near `passEntries` whatever the input.
 */
export function icebergPairs(values: BigUint64Array, offsets: Uint32Array, options: IcebergOptions): SharedPairs {
  const n = offsets.length - 1;
  const post = buildPostings(values, offsets, { cap: options.cap, keepSingletons: false, keepKeys: false, docs: options.pages });
  const { docs, listStart, lists } = post;
  const pairsOf = new Float64Array(n);
  for (let l = 0; l < lists; l++) {
    const lo = listStart[l], len = listStart[l + 1] - lo;
    for (let i = 0; i < len; i++) pairsOf[docs[lo + i]] += len - 1 - i;
  }
  const budget = Math.max(1024, options.passEntries ?? 1 << 22);
  const outA: number[] = [], outB: number[] = [], outS: number[] = [];
  let first = 0;
  while (first < n) {
    let last = first, entries = 0;
    while (last < n && (last === first || entries + pairsOf[last] <= budget)) entries += pairsOf[last++];
    if (entries > 0) countPass(docs, listStart, lists, first, last, entries, options.accept, outA, outB, outS);
    first = last;
  }
  return {
    a: Uint32Array.from(outA), b: Uint32Array.from(outB), shared: Uint32Array.from(outS),
    ignoredValues: post.ignoredShingles, ignoredPostings: post.ignoredPostings,
  };
}

function countPass(
  docs: Uint32Array, listStart: Uint32Array, lists: number, first: number, last: number, entries: number,
  accept: IcebergOptions['accept'], outA: number[], outB: number[], outS: number[],
): void {
  const a = keyedColumns(entries), t = keyedColumns(entries);
  let c = 0;
  for (let l = 0; l < lists; l++) {
    const lo = listStart[l], hi = listStart[l + 1];
    for (let i = lo; i < hi - 1; i++) {
      const p = docs[i];
      if (p < first || p >= last) continue;
      for (let j = i + 1; j < hi; j++) { a.hi[c] = p; a.lo[c] = docs[j]; c++; }
    }
  }
  sortKeyed(a, t, c);
  let i = 0;
  while (i < c) {
    const p = a.hi[i], q = a.lo[i];
    let j = i + 1;
    while (j < c && a.hi[j] === p && a.lo[j] === q) j++;
    if (accept(p, q, j - i)) { outA.push(p); outB.push(q); outS.push(j - i); }
    i = j;
  }
}
