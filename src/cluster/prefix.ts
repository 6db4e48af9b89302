// Candidate keys that stay near-linear on real sites. Navigation, headers and footers put the
// same shingles in every page of a manual; a shingle held by L documents makes L²/2 candidate
// pairs, nearly all of them estimated only to be thrown away. Each document's keys are instead its
// `p` smallest sketch values that are not common (held by at most `cap` documents), and a pair is
// a candidate when it shares at least `h` of them (Broder's pair counting over the keys). Two
// MIN_s sketches of documents with resemblance J over their non-common shingles share each of the
// p smallest values of their union with probability J, and every shared one is among the p
// smallest of each document: the pair shares fewer than h keys with probability at most
// P(Binomial(p, J) < h). With h = 2 and p = 44 a pair at J = 0.32 is missed once in a million
// (h = 1 needs p = 36), and on real documentation 72% of the pairs sharing a key share only one:
// nearly all of them far below the threshold, and none of them estimated. The bound needs a union
// of at least p values: two short rows whose keys number fewer than p together hold every
// non-common value of both, and a pair of them sharing any key is a candidate (as {x} and {x, y}).
import { HI as HI_WORD, LO as LO_WORD, words, type ClusterColumns } from './columns.js';
import { partitionOf } from './postings.js';
import { keyedColumns, sortKeyedFast } from './radix-sort.js';

const HI = HI_WORD, LO = LO_WORD;

/** Miss probability the prefix length is chosen for, at the lowest resemblance it must find. */
export const PREFIX_MISS = 1e-6;

/** Keys a pair must share to be a candidate when documents are keyed by a prefix (default of `prefixHits`). */
export const PREFIX_HITS = 2;

/** P(Binomial(p, j) < h): the chance that a pair at resemblance j shares fewer than h of p prefix keys. */
export function prefixMiss(p: number, j: number, h: number): number {
  if (h <= 0) return 0;
  if (j >= 1) return h > p ? 1 : 0;
  if (j <= 0) return 1;
  // the terms k = 0..h-1, each from the one before (no factorials)
  let term = Math.pow(1 - j, p), sum = 0;
  for (let k = 0; k < h && k <= p; k++) {
    sum += term;
    term *= ((p - k) / (k + 1)) * (j / (1 - j));
  }
  return Math.min(1, sum);
}

/**
 * Takes the lowest resemblance the candidate step must find, the sketch size and the keys a pair
 * must share (default 2); returns the shortest prefix (≤ s) at which such a pair shares fewer
 * than `hits` keys with probability at most PREFIX_MISS, or s when no prefix reaches it.
 */
export function prefixLength(lowest: number, s: number, hits = PREFIX_HITS): number {
  if (!(lowest > 0)) return s;
  for (let p = Math.max(1, hits); p < s; p++) if (prefixMiss(p, lowest, hits) <= PREFIX_MISS) return p;
  return s;
}

/** Prefix keys per document (CSR over all DocIds) and what the cap dropped. */
export interface PrefixKeys {
  values: BigUint64Array;
  offsets: Uint32Array;
  /** Distinct values held by more than `cap` of the documents, and their postings. */
  ignoredShingles: number;
  ignoredPostings: number;
}

/**
 * Takes sketch rows, the documents to key (ascending), the common-value cap and the prefix length;
 * returns each document's first `p` values held by at most `cap` of those documents (others get
 * empty rows). Values are counted by a partitioned radix sort, as the postings are.
 */
export function prefixKeys(set: Pick<ClusterColumns, 'values' | 'offsets'>, docs: Uint32Array, cap: number, p: number): PrefixKeys {
  const w = words(set.values);
  const off = set.offsets;
  const n = off.length - 1;
  let total = 0;
  for (const d of docs) total += off[d + 1] - off[d];
  let bits = 0;
  while (bits < 12 && total / 2 ** bits > 1 << 20) bits++;
  const parts = 1 << bits;
  const first = new Uint32Array(parts + 1);
  for (const d of docs) for (let j = off[d]; j < off[d + 1]; j++) first[partitionOf(w[2 * j + HI], w[2 * j + LO], bits) + 1]++;
  let maxPart = 0;
  for (let q = 0; q < parts; q++) { maxPart = Math.max(maxPart, first[q + 1]); first[q + 1] += first[q]; }
  const all = keyedColumns(total);
  const cursor = first.slice(0, parts);
  for (const d of docs) {
    for (let j = off[d]; j < off[d + 1]; j++) {
      const h = w[2 * j + HI], l = w[2 * j + LO];
      const q = cursor[partitionOf(h, l, bits)]++;
      all.hi[q] = h; all.lo[q] = l; all.pay[q] = j;
    }
  }
  // common[j] = 1 for a sketch entry whose value is held by more than cap documents
  const common = new Uint8Array(off[n]);
  const t = keyedColumns(maxPart);
  let ignoredShingles = 0, ignoredPostings = 0;
  for (let q = 0; q < parts; q++) {
    const from = first[q], c = first[q + 1] - from;
    const a = { hi: all.hi.subarray(from, from + c), lo: all.lo.subarray(from, from + c), pay: all.pay.subarray(from, from + c) };
    sortKeyedFast(a, t, c);
    let i = 0;
    while (i < c) {
      let e = i + 1;
      while (e < c && a.hi[e] === a.hi[i] && a.lo[e] === a.lo[i]) e++;
      if (e - i > cap) {
        ignoredShingles++; ignoredPostings += e - i;
        for (let k = i; k < e; k++) common[a.pay[k]] = 1;
      }
      i = e;
    }
  }
  const offsets = new Uint32Array(n + 1);
  const isDoc = new Uint8Array(n);
  for (const d of docs) isDoc[d] = 1;
  for (let d = 0; d < n; d++) {
    let k = 0;
    if (isDoc[d]) for (let j = off[d]; j < off[d + 1] && k < p; j++) if (!common[j]) k++;
    offsets[d + 1] = offsets[d] + k;
  }
  const values = new BigUint64Array(offsets[n]);
  for (let d = 0, at = 0; d < n; d++) {
    if (!isDoc[d]) continue;
    for (let j = off[d], k = 0; j < off[d + 1] && k < p; j++) if (!common[j]) { values[at++] = set.values[j]; k++; }
  }
  return { values, offsets, ignoredShingles, ignoredPostings };
}
