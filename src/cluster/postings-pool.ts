// The postings of the candidate step built on a worker pool: the count and scatter of prefix.ts's
// steps over ranges of documents (each entry with its document), then each range of partitions
// sorted and read off into lists on a worker. This thread only adds up counts and joins the
// ranges' lists in partition order: the lists buildPostings makes, bit for bit.
import { partitionBounds, prefixBits, type PrefixRunner } from './prefix.js';
import { words } from '../sketch/columns.js';
import type { PostingLists } from './postings.js';
import { keyedColumns, sortKeyedFast, type KeyedColumns } from './radix-sort.js';
import type { Pool } from '../stream/pool.js';

/** Partitions [from, to) of `all` (bounds `first`) sorted and read off: lists of 2..cap documents. */
export interface ListsStep {
  all: KeyedColumns;
  first: Uint32Array;
  from: number;
  to: number;
  cap: number;
}

/** A range's lists: their documents, lengths, lists per partition, and what the cap dropped. */
export interface RangeLists {
  docs: Uint32Array;
  lengths: Uint32Array;
  perPartition: Uint32Array;
  ignoredShingles: number;
  ignoredPostings: number;
}

/** Runs a lists step (on a worker: job kind 'postings'); returns the range's lists. */
export function runListsStep(job: ListsStep): RangeLists {
  const { all, first, cap } = job;
  let maxPart = 0, entries = 0;
  for (let q = job.from; q < job.to; q++) { maxPart = Math.max(maxPart, first[q + 1] - first[q]); entries += first[q + 1] - first[q]; }
  const t = keyedColumns(maxPart);
  const docs = new Uint32Array(entries);
  let lengths = new Uint32Array(Math.max(16, entries >>> 2));
  const perPartition = new Uint32Array(job.to - job.from);
  let m = 0, lists = 0, ignoredShingles = 0, ignoredPostings = 0;
  for (let q = job.from; q < job.to; q++) {
    const from = first[q], c = first[q + 1] - from;
    const a = { hi: all.hi.subarray(from, from + c), lo: all.lo.subarray(from, from + c), pay: all.pay.subarray(from, from + c) };
    sortKeyedFast(a, t, c);
    const before = lists;
    let i = 0;
    while (i < c) {
      const h = a.hi[i], l = a.lo[i];
      let e = i + 1;
      while (e < c && a.hi[e] === h && a.lo[e] === l) e++;
      const len = e - i;
      if (len > cap) { ignoredShingles++; ignoredPostings += len; } else if (len >= 2) {
        docs.set(a.pay.subarray(i, e), m);
        m += len;
        if (lists === lengths.length) { const g = new Uint32Array(2 * lengths.length); g.set(lengths); lengths = g; }
        lengths[lists++] = len;
      }
      i = e;
    }
    perPartition[q - job.from] = lists - before;
  }
  return { docs: docs.slice(0, m), lengths: lengths.slice(0, lists), perPartition, ignoredShingles, ignoredPostings };
}

/** Takes a worker pool; returns a runner of lists steps as jobs of kind 'postings' there (results in order). */
export function listsRunner(pool: Pool): (jobs: ListsStep[]) => Promise<RangeLists[]> {
  return (jobs) => pool.workers.run<RangeLists>('postings', jobs.map((job, k) => ({
    start: k, end: k + 1, where: { first: job.from, last: job.to - 1 },
    pack: () => ({ job, transfer: [] }),
  })), { name: 'postings (lists step)', unit: 'partitions' });
}

/**
 * Takes keys on SharedArrayBuffers (values, offsets), the documents (ascending), the cap, the two
 * runners and the ranges to cut the work in; returns buildPostings(values, offsets, { cap, docs,
 * keepSingletons: false, keepKeys: false }), bit for bit.
 */
export async function postingsOnPool(keys: { values: BigUint64Array; offsets: Uint32Array }, docs: Uint32Array, cap: number,
  run: PrefixRunner, lists: (jobs: ListsStep[]) => Promise<RangeLists[]>, ranges: number): Promise<PostingLists> {
  const off = keys.offsets;
  const sharedDocs = docs.buffer instanceof SharedArrayBuffer ? docs : (() => { const c = new Uint32Array(new SharedArrayBuffer(Math.max(8, docs.byteLength)), 0, docs.length); c.set(docs); return c; })();
  let total = 0;
  for (const d of docs) total += off[d + 1] - off[d];
  const bounds = [0];
  for (let i = 0, seen = 0, r = 1; i < docs.length && r < ranges; i++) {
    seen += off[docs[i] + 1] - off[docs[i]];
    if (seen >= (r * total) / ranges) { bounds.push(i + 1); r++; }
  }
  if (bounds[bounds.length - 1] !== docs.length) bounds.push(docs.length);
  const bits = prefixBits(total), parts = 1 << bits;
  const w = words(keys.values);
  const docRanges = bounds.slice(1).map((to, r) => ({ words: w, offsets: off, docs: sharedDocs, from: bounds[r], to, bits }));
  const counts = (await run(docRanges.map((r) => ({ step: 'count' as const, ...r })))) as Uint32Array[];
  const sum = new Uint32Array(parts);
  for (const c of counts) for (let q = 0; q < parts; q++) sum[q] += c[q];
  const first = partitionBounds(sum);
  // partition q holds range 0's entries, then range 1's...: documents ascend within each, as the sort keeps them
  const cursors = counts.map(() => new Uint32Array(parts));
  for (let q = 0; q < parts; q++) {
    let at = first[q];
    for (let r = 0; r < counts.length; r++) { cursors[r][q] = at; at += counts[r][q]; }
  }
  const column = () => new Uint32Array(new SharedArrayBuffer(Math.max(8, 4 * total)), 0, total);
  const all: KeyedColumns = { hi: column(), lo: column(), pay: column() };
  await run(docRanges.map((r, k) => ({ step: 'scatter' as const, ...r, cursor: cursors[k], all, doc: true })));
  const sharedFirst = new Uint32Array(new SharedArrayBuffer(first.byteLength));
  sharedFirst.set(first);
  const partBounds = [0];
  for (let q = 0, r = 1; q < parts && r < ranges; q++) if (first[q + 1] >= (r * total) / ranges) { partBounds.push(q + 1); r++; }
  if (partBounds[partBounds.length - 1] !== parts) partBounds.push(parts);
  const got = await lists(partBounds.slice(1).map((to, k) => ({ all, first: sharedFirst, from: partBounds[k], to, cap })));
  // the ranges' lists joined in partition order
  let m = 0, n = 0, ignoredShingles = 0, ignoredPostings = 0;
  for (const g of got) { m += g.docs.length; n += g.lengths.length; ignoredShingles += g.ignoredShingles; ignoredPostings += g.ignoredPostings; }
  // on shared memory: the walk's columns are built from them on the workers too (walk-pool.ts)
  const sab = (k: number) => new Uint32Array(new SharedArrayBuffer(Math.max(8, 4 * k)), 0, k);
  const out = sab(m), listStart = sab(n + 1), partStart = new Uint32Array(parts + 1);
  let at = 0, l = 0;
  got.forEach((g, k) => {
    out.set(g.docs, at);
    for (let i = 0; i < g.lengths.length; i++) { listStart[l] = at; at += g.lengths[i]; l++; }
    for (let q = partBounds[k], c = partStart[q]; q < partBounds[k + 1]; q++) { partStart[q] = c; c += g.perPartition[q - partBounds[k]]; partStart[q + 1] = c; }
  });
  listStart[n] = m;
  return { docs: out, listStart, lists: n, keyHi: undefined, keyLo: undefined, partitionBits: bits, partStart, ignoredShingles, ignoredPostings, ignoredPerDoc: undefined };
}
