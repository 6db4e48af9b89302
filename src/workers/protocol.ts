// The messages between the pool and its workers. Documents travel packed: one ArrayBuffer of
// bytes plus end offsets per batch, transferred (not copied) to the worker; results come back as
// the SketchSet's typed-array columns, transferred too. A chunk of pairs to estimate travels as
// two id columns, or as a range of documents whose pairs the worker walks itself; the sketch rows
// (and the walk's postings) are read from SharedArrayBuffers every worker sees.
import type { SketchColumns } from '../sketch/sketch-set.js';
import type { SketchOptions } from '../sketch/options.js';
import type { ContentTables } from '../sketch/content.js';
import type { MinChunkEstimates, MinRows } from '../cluster/estimate.js';
import type { WalkedPairs, WalkJob } from '../cluster/walk.js';
import type { SiteTemplate } from '../template/learn.js';
import type { LineJob } from '../io/read-back.js';
import { byteBound, checkDoc, type DocInput } from '../sketch/input.js';

/** The compiled module, sent once to each worker (it instantiates without compiling again). */
export interface InitMessage {
  type: 'init';
  module: WebAssembly.Module;
}

/** One batch: documents [start, start + ends.length) of a call, as packed UTF-8 bytes. */
export interface JobMessage {
  type: 'sketch' | 'fingerprint' | 'template';
  id: number;
  bytes: Uint8Array;
  /** End offset of each document in `bytes`. */
  ends: Uint32Array;
  /** Batch-local indices of documents that are not strings or bytes: sketched as rejected (empty rows). */
  rejected: Uint32Array;
  /** Sketch options; with content 'main', the batch's own slice of the template tables. */
  options?: SketchOptions & { templates?: ContentTables };
  /** A template job: the site's key and the learning options (its documents are the site's sample, one batch). */
  template?: TemplateJob;
  /** Node workers: documents that are JSONL lines read back, made into their pages before they are sketched (the batch's slice). */
  lines?: LineJob;
}

/** What a template job learns with: `siteTemplate`'s key, the share a block needs, the heavy gate. */
export interface TemplateJob {
  key: string;
  share: number;
  heavy: number;
}

/** A chunk of MIN_s pairs: a[i], b[i] are DocIds of `rows`, whose arrays lie on SharedArrayBuffers (shared, not copied). */
export interface EstimateMessage {
  type: 'estimate';
  id: number;
  rows: MinRows;
  a: Uint32Array;
  b: Uint32Array;
  s: number;
  /** Pairs whose resemblance and containments are all below this are not sent back. */
  floor: number;
  /** A range of documents to walk for the pairs instead of a and b (which are then empty): the worker walks it, tests and estimates its pairs. */
  walk?: WalkJob;
}

export type ToWorker = InitMessage | JobMessage | EstimateMessage;

/**
 * A batch's result: sketch columns, one fingerprint per document, or the template learnt from the
 * documents (its table and what the sample showed); `spare` hands the job's input buffer back
 * (transferred) for the pool to pack a later batch into.
 */
export type FromWorker =
  | { type: 'sketch'; id: number; columns: SketchColumns; spare?: ArrayBuffer; lineErrors?: { index: number; message: string }[] }
  | { type: 'fingerprint'; id: number; fingerprints: BigUint64Array; spare?: ArrayBuffer }
  | { type: 'estimate'; id: number; estimates: MinChunkEstimates; walked?: WalkedPairs; spare?: undefined }
  | { type: 'template'; id: number; table: BigUint64Array; site: SiteTemplate; spare?: ArrayBuffer }
  | { type: 'error'; id: number; code?: string; message: string };

const encoder = new TextEncoder();

/**
 * Packs docs[start, end) into one buffer (strings as UTF-8, as sketchMany encodes them): `spare`
 * when it is large enough, else a fresh one; returns the job's payload.
 */
export function packBatch(docs: ArrayLike<unknown>, start: number, end: number, spare?: () => ArrayBuffer | undefined): Pick<JobMessage, 'bytes' | 'ends' | 'rejected'> {
  let bound = 0;
  const rejected: number[] = [];
  for (let i = start; i < end; i++) {
    const d = docs[i];
    if (checkDoc(d) === undefined) bound += byteBound(d as DocInput);
    else rejected.push(i - start);
  }
  const reuse = spare?.();
  const buf = reuse && reuse.byteLength >= bound ? new Uint8Array(reuse, 0, bound) : new Uint8Array(bound);
  const ends = new Uint32Array(end - start);
  let at = 0;
  for (let i = start; i < end; i++) {
    const d = docs[i];
    if (typeof d === 'string') at += encoder.encodeInto(d, buf.subarray(at)).written;
    else if (d instanceof Uint8Array) { buf.set(d, at); at += d.length; }
    ends[i - start] = at;
  }
  // a string's bound is 3 bytes per UTF-16 unit; send only what was written
  const bytes = at === bound ? buf : buf.slice(0, at);
  return { bytes, ends, rejected: Uint32Array.from(rejected) };
}

/** Unpacks a job into the document list sketchMany takes (views on the transferred bytes; null where a document was rejected). */
export function unpackBatch(job: Pick<JobMessage, 'bytes' | 'ends' | 'rejected'>): (Uint8Array | null)[] {
  const docs: (Uint8Array | null)[] = new Array(job.ends.length);
  let from = 0;
  for (let i = 0; i < job.ends.length; i++) {
    docs[i] = job.bytes.subarray(from, job.ends[i]);
    from = job.ends[i];
  }
  for (const r of job.rejected) docs[r] = null;
  return docs;
}

/** The distinct buffers behind typed arrays, for a postMessage transfer list (never `keep`: WebAssembly memory cannot be transferred). */
export function buffersOf(arrays: (ArrayBufferView | undefined)[], keep?: ArrayBufferLike): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const a of arrays) if (a && a.buffer instanceof ArrayBuffer && a.buffer !== keep) out.add(a.buffer);
  return [...out];
}
