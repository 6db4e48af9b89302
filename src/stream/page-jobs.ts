// What a stream computes from one batch of pages, in the same pass that reads them: a page job is
// a list of page columns, each named and owned by the capability that needs it (the study's
// paragraphs, the signatures' bags of words; here the core's fingerprints, shingles and sketches).
// The same compute runs on the calling thread (one worker) and on each worker of the pool, where
// the job kind 'page' finds the columns by name in the workers' registry (src/jobs.ts), so the
// result is the same for any worker count. Every result is a set of typed-array columns over the
// batch's pages, in batch order.
import { ResembleError } from '../errors.js';
import { fingerprintMany } from '../sketch/rabin.js';
import { resolveSketchOptions, type SketchOptions } from '../sketch/options.js';
import type { SketchColumns, SketchError } from '../sketch/sketch-set.js';
import { shingleValues } from '../sketch/shingles.js';
import { sketchMany } from '../sketch/sketch.js';
import { getMemory } from '../wasm/instance.js';
import { columnArrays, columnsOf } from './pool.js';

/**
 * A column a page job can compute for every page of a batch: its name (unique: the workers look it
 * up by it), how to compute it from the batch's pages (UTF-8 bytes) and whether each is read as
 * HTML (its content type is HTML or unknown) or as plain text, and the arrays of a result (what is
 * transferred back from a worker).
 */
export interface PageColumn<P = never, R = unknown> {
  readonly name: string;
  compute(params: P, docs: readonly Uint8Array[], html: Uint8Array): R;
  arrays(result: R): (ArrayBufferView | undefined)[];
}

/** One column of a job with its parameters (plain data: they are posted to workers). */
export interface PageWork<P = unknown, R = unknown> {
  column: PageColumn<P, R>;
  params: P;
}

/** A page job as posted to a worker: each column's parameters by its name. */
export type PageJobMessage = Readonly<Record<string, unknown>>;

/** What a batch gave: its page count and each column's result by the column's name. */
export interface PageJobResult {
  /** Pages in the batch. */
  n: number;
  columns: Record<string, unknown>;
}

/** Takes one column of a job and its parameters; returns the work item (typed by the column). */
export function work<P, R>(column: PageColumn<P, R>, params: P): PageWork<P, R> {
  return { column: column as unknown as PageColumn<P, R>, params };
}

/** Takes a batch result and a column; returns the column's result (undefined when the job did not ask for it). */
export function resultOf<R>(result: PageJobResult, column: PageColumn<never, R>): R | undefined {
  return result.columns[column.name] as R | undefined;
}

/** Takes a job; returns it as posted (each column's params by its name). */
export function jobMessage(job: readonly PageWork[]): PageJobMessage {
  return Object.fromEntries(job.map((w) => [w.column.name, w.params]));
}

/** Takes a job, a batch's pages and whether each is HTML; returns the batch's columns. Needs the kernels (`init` or `initSync`). */
export function runPageJob(job: readonly PageWork[], docs: readonly Uint8Array[], html: Uint8Array): PageJobResult {
  const columns: Record<string, unknown> = {};
  for (const w of job) columns[w.column.name] = (w.column as PageColumn<unknown, unknown>).compute(w.params, docs, html);
  return { n: docs.length, columns };
}

/** Takes a job message and the columns a worker knows; returns the job (E_INPUT naming a column it does not know). */
export function jobOfMessage(message: PageJobMessage, known: readonly PageColumn<never, unknown>[]): PageWork[] {
  return Object.entries(message).map(([name, params]) => {
    const column = known.find((c) => c.name === name);
    if (!column) throw new ResembleError('E_INPUT', `this worker computes no page column ${JSON.stringify(name)}`);
    return { column: column as unknown as PageColumn<unknown, unknown>, params };
  });
}

/** Takes a job and its result; returns the buffers its columns sit on, for a transfer list (never WebAssembly memory, which cannot be transferred). */
export function resultBuffers(job: readonly PageWork[], r: PageJobResult): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const w of job) {
    const result = r.columns[w.column.name];
    for (const a of (w.column as PageColumn<unknown, unknown>).arrays(result)) if (a && a.buffer instanceof ArrayBuffer && !getMemory().owns(a.buffer)) out.add(a.buffer);
  }
  return [...out];
}

/** Each page's fingerprint (the core's fingerprintMany over its UTF-8 bytes). */
export const FINGERPRINTS: PageColumn<true, BigUint64Array> = {
  name: 'fingerprints',
  compute: (_params, docs) => fingerprintMany(docs),
  arrays: (r) => [r],
};

/** Each page's word-shingle values in page order (shingleValues, as u32 pairs), for the exact shingle sets. */
export const SHINGLES: PageColumn<{ w: number }, { offsets: Uint32Array; words: Uint32Array }> = {
  name: 'shingles',
  compute: ({ w }, docs, html) => {
    const n = docs.length;
    const rows = docs.map((d, i) => shingleValues(d, { w, markup: html[i] ? 'html' : 'text' }));
    const offsets = new Uint32Array(n + 1);
    rows.forEach((r, i) => (offsets[i + 1] = offsets[i] + r.length));
    const all = new BigUint64Array(offsets[n]);
    rows.forEach((r, i) => all.set(r, offsets[i]));
    return { offsets, words: new Uint32Array(all.buffer, 0, all.length * 2) };
  },
  arrays: (r) => [r.offsets, r.words],
};

/** Sketches of every page (sketchMany with these options). */
export const SKETCHES: PageColumn<SketchOptions, { columns: SketchColumns; errors: SketchError[] }> = {
  name: 'sketch',
  compute: (options, docs) => {
    resolveSketchOptions(options);
    const set = sketchMany(docs, options);
    return { columns: columnsOf(set), errors: set.errors.map((e) => ({ index: e.index, message: e.message })) };
  },
  arrays: (r) => columnArrays(r.columns),
};
