import { buildPostings, forEachCandidate } from '../cluster/index.js';

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
  /** Called before the first `accept` with each page's count of values left out by the cap (by DocId; 0 for pages not queried). */
  ignored?: (perPage: Uint32Array) => void;
  /** Only these pages (ascending); all when absent. */
  pages?: Uint32Array;
}

/**
 * The iceberg query of Section 3.2 (after Fang et al.): over the (value, page) table, find the page
 * pairs sharing at least a threshold of values. Takes CSR rows of distinct values per page; groups
 * them by value (the cluster module's postings, with its common-value cap) and counts the values
 * each pair shares with the near-duplicate search's pair counter (`forEachCandidate`: a dense
 * counter per page, memory linear in the postings, not in the pairs); only accepted pairs are kept.
 * Pairs come out a ascending, then b ascending.
 */
export function icebergPairs(values: BigUint64Array, offsets: Uint32Array, options: IcebergOptions): SharedPairs {
  const n = offsets.length - 1;
  const post = buildPostings(values, offsets, { cap: options.cap, keepSingletons: false, keepKeys: false, docs: options.pages, countIgnored: options.ignored !== undefined });
  if (options.ignored) options.ignored(post.ignoredPerDoc!);
  const outA: number[] = [], outB: number[] = [], outS: number[] = [];
  forEachCandidate(post, n, (a, b, shared) => {
    if (options.accept(a, b, shared)) { outA.push(a); outB.push(b); outS.push(shared); }
  });
  return {
    a: Uint32Array.from(outA), b: Uint32Array.from(outB), shared: Uint32Array.from(outS),
    ignoredValues: post.ignoredShingles, ignoredPostings: post.ignoredPostings,
  };
}
