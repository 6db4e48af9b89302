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
import { HI as HI_WORD, LO as LO_WORD, words, type ClusterColumns } from '../sketch/columns.js';
import { partitionOf } from './postings.js';
import { keyedColumns, sortKeyedFast, type KeyedColumns } from './radix-sort.js';
import type { Pool } from '../stream/pool.js';

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

/** Partition bits of prefixKeys' count over `total` sketch entries: partitions of about 2^20 entries at most, 2^12 partitions at most. */
export function prefixBits(total: number): number {
  let bits = 0;
  while (bits < 12 && total / 2 ** bits > 1 << 20) bits++;
  return bits;
}

/**
 * One step of prefixKeys over a range, run on any thread (the worker pool runs them as the job kind
 * 'prefix'; prefixKeysOnPool). Rows are `words` (the u32 words of the sketch values) and `offsets`;
 * `docs` the documents keyed. Steps, in order:
 * - count: entries of docs[from, to) per partition (the result);
 * - scatter: writes those entries into `all` from `cursor` (per partition, where this range's entries start),
 *   each with its entry index as payload (or with `doc`, its document: postings-pool.ts);
 * - common: sorts partitions [from, to) of `all` (bounds `first`), marks `common[j]` for the entries
 *   of values held by more than `cap` documents; the result is [ignoredShingles, ignoredPostings];
 * - keys: `keyOffsets[d + 1]` = the keys of each document of docs[from, to) (at most `p` entries not common);
 * - fill: writes those keys into `out` (the words of the key values) from `keyOffsets[d]` (prefix sums by then).
 */
export type PrefixStep =
  | { step: 'count'; words: Uint32Array; offsets: Uint32Array; docs: Uint32Array; from: number; to: number; bits: number }
  | { step: 'scatter'; words: Uint32Array; offsets: Uint32Array; docs: Uint32Array; from: number; to: number; bits: number; cursor: Uint32Array; all: KeyedColumns; doc?: boolean }
  | { step: 'common'; all: KeyedColumns; first: Uint32Array; from: number; to: number; cap: number; common: Uint8Array }
  | { step: 'keys'; offsets: Uint32Array; docs: Uint32Array; from: number; to: number; common: Uint8Array; p: number; keyOffsets: Uint32Array }
  | { step: 'fill'; words: Uint32Array; offsets: Uint32Array; docs: Uint32Array; from: number; to: number; common: Uint8Array; p: number; keyOffsets: Uint32Array; out: Uint32Array };

/** Runs one step (see PrefixStep); returns the counts per partition (count), [ignoredShingles, ignoredPostings] (common), or nothing. */
export function runPrefixStep(job: PrefixStep): Uint32Array | number[] | undefined {
  switch (job.step) {
    case 'count': {
      const { words: w, offsets: off, docs, bits } = job;
      const counts = new Uint32Array(1 << bits);
      for (let i = job.from; i < job.to; i++) {
        const d = docs[i];
        for (let j = off[d]; j < off[d + 1]; j++) counts[partitionOf(w[2 * j + HI], w[2 * j + LO], bits)]++;
      }
      return counts;
    }
    case 'scatter': {
      const { words: w, offsets: off, docs, bits, all } = job;
      const cursor = job.cursor.slice();
      const hi = all.hi, lo = all.lo, pay = all.pay;
      for (let i = job.from; i < job.to; i++) {
        const d = docs[i];
        for (let j = off[d]; j < off[d + 1]; j++) {
          const h = w[2 * j + HI], l = w[2 * j + LO];
          const q = cursor[partitionOf(h, l, bits)]++;
          hi[q] = h; lo[q] = l; pay[q] = job.doc ? d : j;
        }
      }
      return undefined;
    }
    case 'common': {
      const { all, first, cap, common } = job;
      let maxPart = 0;
      for (let q = job.from; q < job.to; q++) maxPart = Math.max(maxPart, first[q + 1] - first[q]);
      const t = keyedColumns(maxPart);
      let ignoredShingles = 0, ignoredPostings = 0;
      for (let q = job.from; q < job.to; q++) {
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
      return [ignoredShingles, ignoredPostings];
    }
    case 'keys': {
      const { offsets: off, docs, common, p, keyOffsets } = job;
      for (let i = job.from; i < job.to; i++) {
        const d = docs[i];
        let k = 0;
        for (let j = off[d]; j < off[d + 1] && k < p; j++) if (!common[j]) k++;
        keyOffsets[d + 1] = k;
      }
      return undefined;
    }
    case 'fill': {
      // both words of a value copied: no BigInt made per key
      const { words: w, offsets: off, docs, common, p, keyOffsets, out } = job;
      for (let i = job.from; i < job.to; i++) {
        const d = docs[i];
        let at = keyOffsets[d];
        for (let j = off[d], k = 0; j < off[d + 1] && k < p; j++) {
          if (common[j]) continue;
          out[2 * at] = w[2 * j]; out[2 * at + 1] = w[2 * j + 1];
          at++; k++;
        }
      }
      return undefined;
    }
  }
}

/** Takes counts per partition; returns their bounds (partition q is [first[q], first[q + 1])). */
export function partitionBounds(counts: Uint32Array): Uint32Array {
  const first = new Uint32Array(counts.length + 1);
  for (let q = 0; q < counts.length; q++) first[q + 1] = first[q] + counts[q];
  return first;
}

/** Takes per-document key counts in keyOffsets[d + 1]; makes them offsets in place. */
function prefixSums(keyOffsets: Uint32Array): void {
  for (let d = 0; d + 1 < keyOffsets.length; d++) keyOffsets[d + 1] += keyOffsets[d];
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
  const bits = prefixBits(total);
  const range = { words: w, offsets: off, docs, from: 0, to: docs.length, bits };
  const first = partitionBounds(runPrefixStep({ step: 'count', ...range }) as Uint32Array);
  const all = keyedColumns(total);
  runPrefixStep({ step: 'scatter', ...range, cursor: first.subarray(0, 1 << bits), all });
  // common[j] = 1 for a sketch entry whose value is held by more than cap documents
  const common = new Uint8Array(off[n]);
  const [ignoredShingles, ignoredPostings] = runPrefixStep({ step: 'common', all, first, from: 0, to: 1 << bits, cap, common }) as number[];
  const offsets = new Uint32Array(n + 1);
  runPrefixStep({ step: 'keys', ...range, common, p, keyOffsets: offsets });
  prefixSums(offsets);
  const values = new BigUint64Array(offsets[n]);
  runPrefixStep({ step: 'fill', ...range, common, p, keyOffsets: offsets, out: words(values) });
  return { values, offsets, ignoredShingles, ignoredPostings };
}

/** The pool side of prefixKeysOnPool: runs steps of one kind, one job each, in parallel; resolves with their results in order. */
export type PrefixRunner = (jobs: PrefixStep[]) => Promise<(Uint32Array | number[] | undefined)[]>;

/**
 * prefixKeys with every step on a worker pool (`run` posts the steps as jobs of kind 'prefix'):
 * documents in `ranges` ranges of about the same entries for the count, scatter, keys and fill,
 * partitions in ranges of about the same entries for the sort; this thread only adds up counts
 * per partition and per document. Rows must be on SharedArrayBuffers (read in place); the result,
 * the counts and the keys are too. Returns what prefixKeys returns, bit for bit.
 */
export async function prefixKeysOnPool(set: Pick<ClusterColumns, 'values' | 'offsets'>, docs: Uint32Array, cap: number, p: number, run: PrefixRunner, ranges: number): Promise<PrefixKeys> {
  const off = set.offsets;
  const n = off.length - 1;
  const sab = <T extends Uint32Array | Uint8Array>(make: (b: SharedArrayBuffer) => T, bytes: number): T => make(new SharedArrayBuffer(Math.max(bytes, 8)));
  const sharedDocs = docs.buffer instanceof SharedArrayBuffer ? docs : (() => { const c = sab((b) => new Uint32Array(b, 0, docs.length), docs.byteLength); c.set(docs); return c; })();
  const w = words(set.values);
  // ranges of documents with about the same entries each
  let total = 0;
  for (const d of docs) total += off[d + 1] - off[d];
  const bounds = [0];
  for (let i = 0, seen = 0, r = 1; i < docs.length && r < ranges; i++) {
    seen += off[docs[i] + 1] - off[docs[i]];
    if (seen >= (r * total) / ranges) { bounds.push(i + 1); r++; }
  }
  if (bounds[bounds.length - 1] !== docs.length) bounds.push(docs.length);
  const bits = prefixBits(total), parts = 1 << bits;
  const docRanges = bounds.slice(1).map((to, r) => ({ words: w, offsets: off, docs: sharedDocs, from: bounds[r], to, bits }));
  const counts = (await run(docRanges.map((r) => ({ step: 'count' as const, ...r })))) as Uint32Array[];
  // partition q holds range 0's entries, then range 1's...: each range scatters from its own cursor
  const sum = new Uint32Array(parts);
  for (const c of counts) for (let q = 0; q < parts; q++) sum[q] += c[q];
  const first = partitionBounds(sum);
  const cursors = counts.map(() => new Uint32Array(parts));
  for (let q = 0; q < parts; q++) {
    let at = first[q];
    for (let r = 0; r < counts.length; r++) { cursors[r][q] = at; at += counts[r][q]; }
  }
  const column = () => sab((b) => new Uint32Array(b, 0, total), 4 * total);
  const all: KeyedColumns = { hi: column(), lo: column(), pay: column() };
  await run(docRanges.map((r, k) => ({ step: 'scatter' as const, ...r, cursor: cursors[k], all })));
  // partitions in ranges of about the same entries
  const common = sab((b) => new Uint8Array(b, 0, off[n]), off[n]);
  const sharedFirst = sab((b) => new Uint32Array(b, 0, first.length), first.byteLength);
  sharedFirst.set(first);
  const partBounds = [0];
  for (let q = 0, r = 1; q < parts && r < ranges; q++) if (first[q + 1] >= (r * total) / ranges) { partBounds.push(q + 1); r++; }
  if (partBounds[partBounds.length - 1] !== parts) partBounds.push(parts);
  const ignored = (await run(partBounds.slice(1).map((to, k) => ({ step: 'common' as const, all, first: sharedFirst, from: partBounds[k], to, cap, common })))) as number[][];
  const keyOffsets = sab((b) => new Uint32Array(b, 0, n + 1), 4 * (n + 1));
  await run(docRanges.map((r) => ({ step: 'keys' as const, ...r, common, p, keyOffsets })));
  prefixSums(keyOffsets);
  const values = new BigUint64Array(new SharedArrayBuffer(Math.max(8, 8 * keyOffsets[n])), 0, keyOffsets[n]);
  await run(docRanges.map((r) => ({ step: 'fill' as const, ...r, common, p, keyOffsets, out: words(values) })));
  let ignoredShingles = 0, ignoredPostings = 0;
  for (const [s, q] of ignored) { ignoredShingles += s; ignoredPostings += q; }
  return { values, offsets: keyOffsets, ignoredShingles, ignoredPostings };
}

/** Takes a worker pool; returns a runner of prefix steps as jobs of kind 'prefix' there, one batch each (results in order). */
export function prefixRunner(pool: Pool): PrefixRunner {
  return (jobs) => {
    const batches = jobs.map((job, k) => ({
      start: k, end: k + 1,
      where: { first: job.from, last: job.to - 1 },
      pack: () => ({ job, transfer: [] }),
    }));
    return pool.workers.run('prefix', batches, { name: `prefixKeys (${jobs[0]?.step ?? 'no'} step)`, unit: jobs[0]?.step === 'common' ? 'partitions' : 'keyed documents' });
  };
}
