// Every job kind the worker pool runs, by name: the registry the worker scripts (worker-node.ts,
// worker-browser.ts) answer jobs from. The pool (src/workers) knows none of them; each kind's
// calling side is in src/stream/pool.ts (sketch, fingerprint, estimate, template), src/cluster/prefix.ts (prefix), src/cluster/postings-pool.ts (postings), src/cluster/walk-pool.ts (walk-columns) and
// src/stream/page-stream.ts (page), and each page column in the folder of the capability that needs it.
import { ResembleError } from './errors.js';
import { estimateMinChunk } from './sketch/pair-estimates.js';
import { walkPairs } from './cluster/walk.js';
import { runPrefixStep, type PrefixStep } from './cluster/prefix.js';
import { runListsStep, type ListsStep } from './cluster/postings-pool.js';
import { runWalkColumnsStep, type WalkColumnsStep } from './cluster/walk-pool.js';
import { BAGS, CONTENT_BAGS } from './signatures/page-columns.js';
import { fingerprintMany } from './sketch/rabin.js';
import { sketchMany } from './sketch/sketch.js';
import { columnArrays, columnsOf, unpackBatch, type DocumentBatch, type EstimateJob, type SketchJob, type SketchJobResult, type TemplateJobMessage } from './stream/pool.js';
import { FINGERPRINTS, jobOfMessage, resultBuffers, runPageJob, SHINGLES, SKETCHES, type PageColumn, type PageJobMessage } from './stream/page-jobs.js';
import { learnFromPages } from './template/learn.js';
import type { LineJob } from './io/read-back.js';
import { getMemory } from './wasm/instance.js';
import { buffersOf } from './workers/protocol.js';
import type { JobKinds, JobOutput } from './workers/serve.js';

/** Makes a batch's JSONL lines read back into their pages (`pagesOfLines`: Node workers only). */
export type LinePages = (docs: readonly (Uint8Array | null)[], job: LineJob) => { docs: (Uint8Array | null)[]; errors: { index: number; message: string }[] };

/** The page columns every worker computes (Node's adds the study's paragraphs, whose text scan is Node only). */
export const PAGE_COLUMNS: readonly PageColumn<never, unknown>[] = [FINGERPRINTS, SHINGLES, SKETCHES, BAGS, CONTENT_BAGS] as readonly PageColumn<never, unknown>[];

/** A page batch as posted: the job's columns, the pages packed, and whether each is HTML. */
export interface PageBatchMessage {
  job: PageJobMessage;
  bytes: Uint8Array;
  ends: Uint32Array;
  html: Uint8Array;
}

/** Results are copies out of WebAssembly memory; never list the memory itself for transfer. */
function transferable(arrays: (ArrayBufferView | undefined)[]): ArrayBuffer[] {
  return buffersOf(arrays).filter((b) => !getMemory().owns(b));
}

/** The input buffer of a batch, handed back to the pool once the batch is done (nothing keeps a view of it). */
function spareOf(job: DocumentBatch): ArrayBuffer | undefined {
  return job.bytes.buffer instanceof ArrayBuffer ? job.bytes.buffer : undefined;
}

/** Takes the page columns the worker computes and how JSONL lines become pages (Node workers); returns every kind, by name. */
export function jobKinds(columns: readonly PageColumn<never, unknown>[] = PAGE_COLUMNS, linePages?: LinePages): JobKinds {
  return {
    sketch: (job: SketchJob): JobOutput => {
      let docs = unpackBatch(job);
      let lineErrors: { index: number; message: string }[] | undefined;
      if (job.lines) {
        if (!linePages) throw new ResembleError('E_INPUT', 'JSONL lines are read back on Node workers only');
        ({ docs, errors: lineErrors } = linePages(docs, job.lines));
      }
      const columns = columnsOf(sketchMany(docs as Uint8Array[], job.options));
      const result: SketchJobResult = { columns, ...(lineErrors?.length ? { lineErrors } : {}) };
      return { result, transfer: transferable(columnArrays(columns)), spare: spareOf(job) };
    },
    fingerprint: (job: DocumentBatch): JobOutput => {
      const fingerprints = fingerprintMany(unpackBatch(job) as Uint8Array[]);
      return { result: fingerprints, transfer: transferable([fingerprints]), spare: spareOf(job) };
    },
    template: (job: TemplateJobMessage): JobOutput => {
      const { key, share, heavy } = job.template;
      const { table, site } = learnFromPages(unpackBatch(job) as Uint8Array[], key, share, heavy);
      return { result: { table, site }, transfer: transferable([table]), spare: spareOf(job) };
    },
    estimate: (job: EstimateJob): JobOutput => {
      if (job.walk) {
        // the range's pairs, walked here, then estimated; only the pairs the estimates keep go back
        const w = walkPairs(job.walk);
        const e = estimateMinChunk(job.rows, w.a, w.b, job.s, job.floor);
        const k = e.index.length;
        const walked = { a: new Uint32Array(k), b: new Uint32Array(k), hits: new Uint32Array(k), candidates: w.candidates };
        for (let j = 0; j < k; j++) { const i = e.index[j]; walked.a[j] = w.a[i]; walked.b[j] = w.b[i]; walked.hits[j] = w.hits[i]; e.index[j] = j; }
        return { result: { estimates: e, walked }, transfer: buffersOf([e.index, e.shared, e.resemblance, e.containmentAB, e.containmentBA, walked.a, walked.b, walked.hits]) };
      }
      const e = estimateMinChunk(job.rows, job.a, job.b, job.s, job.floor);
      return { result: { estimates: e }, transfer: buffersOf([e.index, e.shared, e.resemblance, e.containmentAB, e.containmentBA]) };
    },
    prefix: (job: PrefixStep): JobOutput => {
      // the rows, the entries and the keys are on SharedArrayBuffers: only counts come back
      const result = runPrefixStep(job);
      return { result, transfer: result instanceof Uint32Array ? [result.buffer as ArrayBuffer] : [] };
    },
    postings: (job: ListsStep): JobOutput => {
      const r = runListsStep(job);
      return { result: r, transfer: buffersOf([r.docs, r.lengths, r.perPartition]) };
    },
    'walk-columns': (job: WalkColumnsStep): JobOutput => {
      const r = runWalkColumnsStep(job);
      return { result: r, transfer: r ? [r.buffer as ArrayBuffer] : [] };
    },
    page: (msg: PageBatchMessage): JobOutput => {
      const job = jobOfMessage(msg.job, columns);
      const docs: Uint8Array[] = new Array(msg.ends.length);
      let from = 0;
      for (let i = 0; i < msg.ends.length; i++) { docs[i] = msg.bytes.subarray(from, msg.ends[i]); from = msg.ends[i]; }
      const result = runPageJob(job, docs, msg.html);
      return { result, transfer: resultBuffers(job, result) };
    },
  };
}
