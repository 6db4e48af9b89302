// The walk's columns (walk.ts) built on a worker pool: this thread orders the lists by their first
// document (a counting pass over the lists); the workers copy ranges of lists into that order,
// count each document's postings over ranges of them, and write each document's places from
// cursors this thread adds up: the columns walkColumns(post, n, true) makes, bit for bit.
import type { PostingLists } from './postings.js';
import type { WalkColumns } from './walk.js';
import type { Pool } from '../stream/pool.js';

/**
 * One step over a range [from, to) (of lists for copy; of postings in walk order for count and place):
 * - copy: lists l into `docs` from at[rank[l]], a start flag at each;
 * - count: postings per document of docs[from, to) (the result);
 * - place: pos[cursor[d]++] = q for each posting q of document d (cursor: this range's, per document).
 */
export type WalkColumnsStep =
  | { step: 'copy'; src: Uint32Array; listStart: Uint32Array; rank: Uint32Array; at: Uint32Array; docs: Uint32Array; start: Uint8Array; from: number; to: number }
  | { step: 'count'; docs: Uint32Array; nDocs: number; from: number; to: number }
  | { step: 'place'; docs: Uint32Array; cursor: Uint32Array; pos: Uint32Array; from: number; to: number };

/** Runs one step (on a worker: job kind 'walk-columns'); returns the counts per document (count) or nothing. */
export function runWalkColumnsStep(job: WalkColumnsStep): Uint32Array | undefined {
  if (job.step === 'copy') {
    const { src, listStart, rank, at, docs, start } = job;
    for (let l = job.from; l < job.to; l++) {
      let q = at[rank[l]];
      start[q] = 1;
      for (let i = listStart[l], e = listStart[l + 1]; i < e; i++) docs[q++] = src[i];
    }
    return undefined;
  }
  if (job.step === 'count') {
    const counts = new Uint32Array(job.nDocs);
    const docs = job.docs;
    for (let q = job.from; q < job.to; q++) counts[docs[q]]++;
    return counts;
  }
  const { docs, pos } = job;
  const cursor = job.cursor.slice();
  for (let q = job.from; q < job.to; q++) pos[cursor[docs[q]]++] = q;
  return undefined;
}

/** Steps run as jobs (one each), results in order. */
export type WalkColumnsRunner = (jobs: WalkColumnsStep[]) => Promise<(Uint32Array | undefined)[]>;

/** Takes a worker pool; returns a runner of the steps as jobs of kind 'walk-columns' there. */
export function walkColumnsRunner(pool: Pool): WalkColumnsRunner {
  return (jobs) => pool.workers.run('walk-columns', jobs.map((job, k) => ({
    start: k, end: k + 1, where: { first: job.from, last: job.to - 1 },
    pack: () => ({ job, transfer: [] }),
  })), { name: `walk columns (${jobs[0]?.step ?? 'no'} step)`, unit: jobs[0]?.step === 'copy' ? 'lists' : 'postings' });
}

/** Takes a length and a count of ranges; returns range bounds of about the same size. */
function cut(n: number, ranges: number): number[] {
  const k = Math.max(1, Math.min(ranges, n));
  return Array.from({ length: k + 1 }, (_, r) => Math.floor((r * n) / k));
}

/**
 * Takes postings whose docs and list starts are on SharedArrayBuffers, the document count, a
 * runner and the ranges to cut the work in; returns walkColumns(post, nDocs, true), bit for bit.
 */
export async function walkColumnsOnPool(post: PostingLists, nDocs: number, run: WalkColumnsRunner, ranges: number): Promise<WalkColumns> {
  const sab = (n: number) => new Uint32Array(new SharedArrayBuffer(Math.max(8, 4 * n)), 0, n);
  const { lists, listStart } = post;
  const src = post.docs, m = src.length;
  // lists ordered by their first document (a stable counting pass), and where each lands
  const firstCount = new Uint32Array(nDocs + 1);
  for (let l = 0; l < lists; l++) firstCount[src[listStart[l]] + 1]++;
  for (let d = 0; d < nDocs; d++) firstCount[d + 1] += firstCount[d];
  const rank = sab(lists);
  for (let l = 0; l < lists; l++) rank[l] = firstCount[src[listStart[l]]]++;
  const at = sab(lists + 1);
  for (let l = 0; l < lists; l++) at[rank[l] + 1] = listStart[l + 1] - listStart[l];
  for (let r = 0; r < lists; r++) at[r + 1] += at[r];
  const docs = sab(m);
  const start = new Uint8Array(new SharedArrayBuffer(m + 1));
  const byLists = cut(lists, ranges);
  await run(byLists.slice(1).map((to, k) => ({ step: 'copy' as const, src, listStart, rank, at, docs, start, from: byLists[k], to })));
  start[m] = 1;
  // each document's postings: counted over ranges, then placed from cursors (range r after ranges before it)
  const byPostings = cut(m, ranges);
  const counts = (await run(byPostings.slice(1).map((to, k) => ({ step: 'count' as const, docs, nDocs, from: byPostings[k], to })))) as Uint32Array[];
  const posStart = sab(nDocs + 1);
  for (let d = 0; d < nDocs; d++) {
    let c = posStart[d];
    for (const r of counts) { const x = r[d]; r[d] = c; c += x; }
    posStart[d + 1] = c;
  }
  const pos = sab(m);
  await run(byPostings.slice(1).map((to, k) => ({ step: 'place' as const, docs, cursor: counts[k], pos, from: byPostings[k], to })));
  return { docs, start, pos, posStart };
}
