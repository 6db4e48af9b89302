// The defaults of near-duplicate clustering, in one table: the library's options and the CLI's
// flags (`resemble dups`, `dedup`, `index`) both read them from here, so the two cannot drift.

/** Defaults of `findNearDuplicates` and `dedup` (and of the flags of the same names). */
export const NEAR_DUPLICATE_DEFAULTS = {
  /** Resemblance at which two pages join (the paper's 0.5). */
  threshold: 0.5,
  /** Shingles found in more than this many pages are ignored. */
  commonCap: 1000,
  /** Equivalent pages set aside before clustering: identical, lexical and shingle-equivalent. */
  equivalence: 'shingle',
  /** How candidate pairs are found. */
  method: 'pairs',
  /** pairs: prefix keys a pair must share. */
  prefixHits: 2,
  /** Standard errors around the threshold within which pairs are checked exactly. */
  exactBand: 3,
  /** lsh: signature length. */
  k: 128,
  /** super-shingles: sketch values per super-shingle. */
  superShingle: 2,
  /** Which member represents a cluster. */
  representative: 'first',
  /** What is sketched: each page's own content, its site's template left out. */
  content: 'main',
  /** dedup: which page of a cluster stays. */
  keep: 'first',
} as const;
