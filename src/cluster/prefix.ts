// Candidate keys that stay near-linear on real sites. Navigation, headers and footers put the
// same shingles in every page of a manual; a shingle held by L documents makes L²/2 candidate
// pairs, nearly all of them estimated only to be thrown away. Each document's keys are instead its
// `p` smallest sketch values that are not common (held by at most `cap` documents). Two MIN_s
// sketches of documents with resemblance J over their non-common shingles share a value among
// those p with probability 1 − (1 − J)^p: every shared value among the p smallest of the union is
// among the p smallest of each document. With p = 36 a pair at J = 0.32 is missed once in a
// million, and a value on L pages costs (p/s)² of the pairs it cost before.
import { HI as HI_WORD, LO as LO_WORD, words, type ClusterColumns } from './columns.js';
import { partitionOf } from './postings.js';
import { keyedColumns, sortKeyedFast } from './radix-sort.js';

const HI = HI_WORD, LO = LO_WORD;

/** Miss probability the prefix length is chosen for, at the lowest resemblance it must find. */
export const PREFIX_MISS = 1e-6;

/** Takes the lowest resemblance the candidate step must find and the sketch size; returns the prefix length (≤ s). */
export function prefixLength(lowest: number, s: number): number {
  if (!(lowest > 0)) return s;
  if (lowest >= 1) return Math.min(s, 1);
  return Math.min(s, Math.ceil(Math.log(PREFIX_MISS) / Math.log(1 - lowest)));
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
