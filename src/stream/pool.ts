// The pool as every stream and the library's users call it: the one worker pool (src/workers)
// with the core's job kinds as methods. Each method cuts its call into batches, packs a batch
// only when a worker takes it, and puts the results back in place by document index, so it
// returns what the single-threaded function returns for any worker count, batch split or
// finishing order. The workers run the kinds registered in src/jobs.ts under the same names.
// A chunk of MIN_s pairs to estimate is one batch; the sketch rows stay in shared memory, so a
// chunk costs its two id columns, not the rows.
import { intOption, numberOption, optionError, rejectUnknown, ResembleError } from '../errors.js';
import type { MinChunkEstimates, MinRows } from '../sketch/pair-estimates.js';
import type { WalkedPairs, WalkJob } from '../cluster/walk.js';
import type { LineJob } from '../io/read-back.js';
import { checkContentTables, type ContentTables } from '../sketch/content-tables.js';
import { byteBound, checkDoc, type DocInput } from '../sketch/input.js';
import { resolveSketchOptions, type SketchOptions, type SketchParams } from '../sketch/options.js';
import { SketchSet, type SketchColumns, type SketchError } from '../sketch/sketch-set.js';
import { sketchMany, type SketchManyOptions } from '../sketch/sketch.js';
import type { SiteTemplate } from '../template/learn.js';
import type { Batch, Workers } from '../workers/pool.js';

export type { PoolOptions } from '../workers/pool.js';

/**
 * sketchMany's options on a pool; `lines` (Node workers only): documents that are JSONL lines read
 * back from a crawl, made into their pages on the workers before they are sketched; a line that no
 * longer holds its page, or holds one of another size, is an error of the set (an empty row).
 */
export interface PoolSketchOptions extends SketchManyOptions {
  lines?: LineJob;
  /**
   * Target input bytes per batch of this call, 1 KiB..256 MiB, instead of the pool's: a caller
   * streaming many calls of a few MiB (each already a batch) sends each as one. Default: the pool's.
   */
  batchBytes?: number;
}

/** Progress callback of fingerprintMany: documents done so far and in total. */
export interface FingerprintManyOptions {
  /** Called as batches finish, with the documents done and the total. */
  onProgress?: (done: number, total: number) => void;
}

/** Options of Pool.estimateMinPairs. */
export interface EstimateMinPairsOptions {
  /** The sketch size (params.s of the rows' sketches). */
  s: number;
  /** Pairs whose resemblance and containments are all below this are left out (default 0). */
  floor?: number;
}

/** What a template job learns with: `siteTemplate`'s key, the share a block needs, the heavy gate. */
export interface TemplateJob {
  key: string;
  share: number;
  heavy: number;
}

/** A pool of workers sketching batches in parallel; results equal the single-threaded functions'. */
export interface Pool {
  /** Number of workers the pool may run. */
  readonly size: number;
  /** The pool itself, for job kinds beyond these methods (the page jobs of the streams). */
  readonly workers: Workers;
  /** Takes documents and sketch options (plus onProgress); returns the same SketchSet as sketchMany(docs, options).
   *  Documents are read batch by batch while the call runs: do not change them before it settles. */
  sketchMany(docs: ArrayLike<DocInput>, options?: PoolSketchOptions): Promise<SketchSet>;
  /** Takes documents; returns the same fingerprints as fingerprintMany(docs). */
  fingerprintMany(docs: ArrayLike<DocInput>, options?: FingerprintManyOptions): Promise<BigUint64Array>;
  /**
   * Takes MIN_s sketch rows, pairs a[i], b[i] of their row ids (read when the chunk is posted to a
   * worker: leave them unchanged until the call settles) and the sketch size s; returns, in pair
   * order, the estimates of the pairs whose resemblance or containment either way reaches `floor`
   * (default 0: every pair), equal to the single-threaded kernel's. Rows on SharedArrayBuffers are
   * read in place; others are copied into shared memory once per values array (the copy is kept
   * while the array lives). Needs SharedArrayBuffer (in browsers, a cross-origin isolated page).
   */
  estimateMinPairs(rows: MinRows, a: Uint32Array, b: Uint32Array, options: EstimateMinPairsOptions): Promise<MinChunkEstimates>;
  /**
   * Takes MIN_s sketch rows and a walk job (a range of documents, the walk's columns and the pair
   * tests, on SharedArrayBuffers: `walkColumns(post, n, true)`); returns the pairs the range's walk
   * keeps whose estimates reach `floor`, with their estimates (index k is walked pair k), in walk
   * order, and the candidates counted: the same as walking those documents and estimating their
   * pairs on one thread. Needs SharedArrayBuffer.
   */
  walkMinPairs(rows: MinRows, job: WalkJob, options: EstimateMinPairsOptions): Promise<{ estimates: MinChunkEstimates; walked: WalkedPairs }>;
  /**
   * Takes a site's sampled pages and how to learn (the site's key, share, heavy); returns the
   * template learnt from them on one worker, as `learnFromPages` on the calling thread. It goes
   * before batches already waiting: the site's pages wait for it, and it is a few pages.
   */
  learnTemplate(docs: ArrayLike<DocInput>, how: TemplateJob): Promise<{ table: BigUint64Array; site: SiteTemplate }>;
  /** Stops every worker; calls still running are rejected. */
  close(): Promise<void>;
}

/** Documents [start, start + ends.length) of a call, as packed UTF-8 bytes: what the document kinds (sketch, fingerprint, template) post. */
export interface DocumentBatch {
  bytes: Uint8Array;
  /** End offset of each document in `bytes`. */
  ends: Uint32Array;
  /** Batch-local indices of documents that are not strings or bytes: sketched as rejected (empty rows). */
  rejected: Uint32Array;
}

/** A sketch job: a document batch, the sketch options (with content 'main', the batch's own slice of the template tables) and JSONL lines to read back. */
export interface SketchJob extends DocumentBatch {
  options?: SketchOptions & { templates?: ContentTables };
  lines?: LineJob;
}

/** What a sketch job gives: the batch's columns, and the lines that no longer held their page. */
export interface SketchJobResult {
  columns: SketchColumns;
  lineErrors?: { index: number; message: string }[];
}

/** A template job: the site's sample (one batch) and how to learn. */
export interface TemplateJobMessage extends DocumentBatch {
  template: TemplateJob;
}

/** A chunk of MIN_s pairs: a[i], b[i] are DocIds of `rows`, whose arrays lie on SharedArrayBuffers (shared, not copied). */
export interface EstimateJob {
  rows: MinRows;
  a: Uint32Array;
  b: Uint32Array;
  s: number;
  /** Pairs whose resemblance and containments are all below this are not sent back. */
  floor: number;
  /** A range of documents to walk for the pairs instead of a and b (which are then empty): the worker walks it, tests and estimates its pairs. */
  walk?: WalkJob;
}

const AUTO_MIN = 64 << 10, AUTO_MAX = 4 << 20;
const MiB = 1 << 20;
/** Takes a byte count; returns it rounded up to whole MiB past 1 MiB (smaller batches keep their size). */
const roundUp = (n: number): number => (n <= MiB ? n : Math.ceil(n / MiB) * MiB);
const encoder = new TextEncoder();

/**
 * Packs docs[start, end) into one buffer (strings as UTF-8, as sketchMany encodes them): `spare`
 * when it is large enough, else a fresh one; returns the job's payload.
 */
export function packBatch(docs: ArrayLike<unknown>, start: number, end: number, spare?: () => ArrayBuffer | undefined): DocumentBatch {
  let bound = 0;
  const rejected: number[] = [];
  for (let i = start; i < end; i++) {
    const d = docs[i];
    if (checkDoc(d) === undefined) bound += byteBound(d as DocInput);
    else rejected.push(i - start);
  }
  const reuse = spare?.();
  // a fresh buffer is rounded up to whole MiB, so that the next batches, of about the same size,
  // fit in it when the worker hands it back (a batch just over the last one's size would otherwise
  // take a fresh buffer every other time: its pages faulted in, the old one left to the collector)
  const buf = reuse && reuse.byteLength >= bound ? new Uint8Array(reuse, 0, bound) : new Uint8Array(new ArrayBuffer(roundUp(bound)), 0, bound);
  const ends = new Uint32Array(end - start);
  let at = 0;
  for (let i = start; i < end; i++) {
    const d = docs[i];
    if (typeof d === 'string') at += encoder.encodeInto(d, buf.subarray(at)).written;
    else if (d instanceof Uint8Array) { buf.set(d, at); at += d.length; }
    ends[i - start] = at;
  }
  // a string's bound is 3 bytes per UTF-16 unit; send only what was written (a view: the buffer goes as a whole)
  const bytes = at === bound ? buf : buf.subarray(0, at);
  return { bytes, ends, rejected: Uint32Array.from(rejected) };
}

/** Unpacks a batch into the document list sketchMany takes (views on the transferred bytes; null where a document was rejected). */
export function unpackBatch(job: DocumentBatch): (Uint8Array | null)[] {
  const docs: (Uint8Array | null)[] = new Array(job.ends.length);
  let from = 0;
  for (let i = 0; i < job.ends.length; i++) {
    docs[i] = job.bytes.subarray(from, job.ends[i]);
    from = job.ends[i];
  }
  for (const r of job.rejected) docs[r] = null;
  return docs;
}

/** The transfer list of a document batch. */
function batchBuffers(b: DocumentBatch): ArrayBuffer[] {
  return [b.bytes.buffer as ArrayBuffer, b.ends.buffer as ArrayBuffer, b.rejected.buffer as ArrayBuffer];
}

/** Takes the one worker pool; returns it with the core's job kinds as methods. */
export function poolOf(workers: Workers): Pool {
  return new TypedPool(workers);
}

class TypedPool implements Pool {
  constructor(readonly workers: Workers) {}

  get size(): number {
    return this.workers.size;
  }

  async sketchMany(docs: ArrayLike<DocInput>, options: PoolSketchOptions = {}): Promise<SketchSet> {
    const { onProgress, templates, lines, batchBytes, ...rest } = options ?? {};
    const params = resolveSketchOptions(rest);
    const target = batchBytes === undefined ? undefined : intOption('batchBytes', batchBytes, 0, 1024, 256 << 20);
    this.workers.usable();
    const n = checkList(docs, 'sketchMany');
    if (templates !== undefined) checkTemplates(params, templates, n);
    if (n === 0) return sketchMany([], rest);
    const errors: SketchError[] = [];
    for (let i = 0; i < n; i++) {
      const bad = checkDoc(docs[i]);
      if (bad) errors.push({ index: i, message: `document ${i}: ${bad}` });
    }
    if (lines !== undefined && !(lines.offsets?.length === n && lines.sizes?.length === n)) throw optionError('lines', `offsets and sizes of ${n} documents`, 'other lengths');
    const bounds = this.plan(docs, target);
    const batches: Batch[] = [];
    for (let k = 0; k + 1 < bounds.length; k++) {
      const start = bounds[k], end = bounds[k + 1];
      batches.push({
        start, end,
        pack: (spare) => {
          const options = templates ? { ...rest, templates: { values: templates.values, offsets: templates.offsets, docTable: templates.docTable.slice(start, end) } } : rest;
          const slice = lines ? { read: lines.read, offsets: lines.offsets.slice(start, end), sizes: lines.sizes.slice(start, end) } : undefined;
          const job: SketchJob = { ...packBatch(docs, start, end, spare), options, lines: slice };
          return { job, transfer: batchBuffers(job) };
        },
      });
    }
    const results = await this.workers.run<SketchJobResult>('sketch', batches, { name: 'sketchMany', total: n, onProgress });
    for (let k = 0; k < results.length; k++) for (const e of results[k].lineErrors ?? []) errors.push({ index: bounds[k] + e.index, message: e.message });
    if (lines) errors.sort((x, y) => x.index - y.index);
    return assembleSketchSet(params, n, results.map((r, k) => ({ start: bounds[k], end: bounds[k + 1], columns: r.columns })), errors);
  }

  async fingerprintMany(docs: ArrayLike<DocInput>, options: FingerprintManyOptions = {}): Promise<BigUint64Array> {
    options ??= {};
    rejectUnknown(options, ['onProgress'], 'fingerprintMany');
    const n = this.checkDocs(docs, 'fingerprintMany');
    const out = new BigUint64Array(n);
    if (n === 0) return out;
    const bounds = this.plan(docs);
    const batches = documentBatches(docs, bounds);
    const results = await this.workers.run<BigUint64Array>('fingerprint', batches, { name: 'fingerprintMany', total: n, onProgress: options.onProgress });
    results.forEach((r, k) => out.set(r, bounds[k]));
    return out;
  }

  async estimateMinPairs(rows: MinRows, a: Uint32Array, b: Uint32Array, options: EstimateMinPairsOptions): Promise<MinChunkEstimates> {
    if (options === null || typeof options !== 'object') throw new ResembleError('E_OPTION', 'expected an options object { s, floor? } for estimateMinPairs');
    rejectUnknown(options, ['s', 'floor'], 'estimateMinPairs');
    if (options.s === undefined) throw optionError('s', 'integer 1..2147483647 (the sketch size)', undefined);
    const s = intOption('s', options.s, 0, 1, 0x7fffffff);
    const floor = numberOption('floor', options.floor, 0, 0, 1);
    if (!(a instanceof Uint32Array && b instanceof Uint32Array && a.length === b.length)) {
      throw new ResembleError('E_INPUT', 'estimateMinPairs: expected two Uint32Arrays of the same length (the pairs\' document ids)');
    }
    this.workers.usable();
    const shared = sharedRows(rows);
    if (a.length === 0) return emptyEstimates(0);
    const [r] = await this.workers.run<{ estimates: MinChunkEstimates }>('estimate', [estimateBatch({ rows: shared, a, b, s, floor }, a.length)], { name: 'estimateMinPairs', unit: 'pairs' });
    return r.estimates;
  }

  async walkMinPairs(rows: MinRows, job: WalkJob, options: EstimateMinPairsOptions): Promise<{ estimates: MinChunkEstimates; walked: WalkedPairs }> {
    if (options === null || typeof options !== 'object') throw new ResembleError('E_OPTION', 'expected an options object { s, floor? } for walkMinPairs');
    rejectUnknown(options, ['s', 'floor'], 'walkMinPairs');
    const s = intOption('s', options.s ?? null, 0, 1, 0x7fffffff);
    const floor = numberOption('floor', options.floor, 0, 0, 1);
    const c = job?.columns;
    const onShared = (v: ArrayBufferView | undefined) => v === undefined || v.buffer instanceof SharedArrayBuffer;
    if (!(c && [c.docs, c.start, c.pos, c.posStart, job.tests?.keyOffsets, job.tests?.rowOffsets, job.tests?.ignored].every(onShared))) {
      throw new ResembleError('E_INPUT', 'walkMinPairs: expected a walk job whose columns and tests are on SharedArrayBuffers (walkColumns(post, n, true))');
    }
    if (!(Number.isInteger(job.from) && Number.isInteger(job.to) && job.from >= 0 && job.from <= job.to && job.to < c.posStart.length)) {
      throw new ResembleError('E_INPUT', `walkMinPairs: expected a range of documents within 0..${c.posStart.length - 1}, got ${job.from}..${job.to}`);
    }
    this.workers.usable();
    const shared = sharedRows(rows);
    const none = new Uint32Array(0);
    const batch = { ...estimateBatch({ rows: shared, a: none, b: none, s, floor, walk: job }, Math.max(1, job.to - job.from)), where: { first: job.from, last: job.to - 1 } };
    const [r] = await this.workers.run<{ estimates: MinChunkEstimates; walked: WalkedPairs }>('estimate', [batch], { name: 'walkMinPairs' });
    return { estimates: r.estimates, walked: r.walked };
  }

  async learnTemplate(docs: ArrayLike<DocInput>, how: TemplateJob): Promise<{ table: BigUint64Array; site: SiteTemplate }> {
    const n = this.checkDocs(docs, 'learnTemplate');
    if (how === null || typeof how !== 'object' || typeof how.key !== 'string') throw new ResembleError('E_OPTION', 'learnTemplate: expected { key, share, heavy }');
    // both required (null is rejected)
    const share = numberOption('share', how.share ?? null, 0, 0, 1), heavy = numberOption('heavy', how.heavy ?? null, 0, 0, 1);
    const template = { key: how.key, share, heavy };
    // a template is learnt from all its pages at once, ahead of batches waiting (the site's pages wait for it)
    const batch: Batch = {
      start: 0, end: n,
      pack: (spare) => { const job: TemplateJobMessage = { ...packBatch(docs, 0, n, spare), template }; return { job, transfer: batchBuffers(job) }; },
    };
    const [r] = await this.workers.run<{ table: BigUint64Array; site: SiteTemplate }>('template', [batch], { name: 'learnTemplate', first: true });
    return r;
  }

  close(): Promise<void> {
    return this.workers.close();
  }

  /** Takes a call's documents; returns their count once the pool is usable and each is a string or bytes (E_INPUT naming the first that is not). */
  private checkDocs(docs: ArrayLike<DocInput>, what: string): number {
    this.workers.usable();
    const n = checkList(docs, what);
    for (let i = 0; i < n; i++) {
      const bad = checkDoc(docs[i]);
      if (bad) throw new ResembleError('E_INPUT', `${what}: document ${i}: ${bad}`, { index: i });
    }
    return n;
  }

  /** Batch boundaries: consecutive documents up to the byte target (at least one each) and the pool's batchDocs. */
  private plan(docs: ArrayLike<unknown>, batchBytes = this.workers.batchBytes): number[] {
    const n = docs.length;
    const sizes = new Float64Array(n);
    let total = 0;
    for (let i = 0; i < n; i++) {
      const d = docs[i];
      sizes[i] = checkDoc(d) === undefined ? byteBound(d as DocInput) : 0;
      total += sizes[i];
    }
    const target = batchBytes || Math.min(AUTO_MAX, Math.max(AUTO_MIN, Math.ceil(total / (4 * this.workers.size))));
    const bounds = [0];
    let i = 0;
    while (i < n) {
      let j = i, bytes = 0;
      while (j < n && j - i < this.workers.batchDocs && (j === i || bytes + sizes[j] <= target)) bytes += sizes[j++];
      bounds.push(j);
      i = j;
    }
    return bounds;
  }
}

/** The batches of a call over documents cut at `bounds`, each packed as a document batch. */
function documentBatches(docs: ArrayLike<unknown>, bounds: readonly number[]): Batch[] {
  const batches: Batch[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const start = bounds[k], end = bounds[k + 1];
    batches.push({ start, end, pack: (spare) => { const job = packBatch(docs, start, end, spare); return { job, transfer: batchBuffers(job) }; } });
  }
  return batches;
}

/**
 * The one batch of an estimate call. The caller keeps its pair columns: a column that is its whole
 * buffer is copied by the message itself (nothing allocated here), a view into a larger one is
 * sliced and transferred.
 */
function estimateBatch(job: EstimateJob, n: number): Batch {
  return {
    start: 0, end: n,
    pack: () => {
      const whole = (x: Uint32Array) => x.byteOffset === 0 && x.byteLength === x.buffer.byteLength;
      const a = whole(job.a) ? job.a : job.a.slice(), b = whole(job.b) ? job.b : job.b.slice();
      return { job: { ...job, a, b }, transfer: [a, b].filter((x) => x !== job.a && x !== job.b).map((x) => x.buffer as ArrayBuffer) };
    },
  };
}

/** True when SharedArrayBuffer is there to share sketch rows with workers (always in Node; in browsers, on cross-origin isolated pages). */
function sharedMemory(): boolean {
  return typeof SharedArrayBuffer === 'function';
}

/** Shared copies of rows not already on SharedArrayBuffers, by their values array (made once while it lives), with the offsets they were made from. */
const sharedCopies = new WeakMap<BigUint64Array, { from: Uint32Array; rows: MinRows }>();

/** Takes MIN_s rows; returns them on SharedArrayBuffers (as they are, or a copy made once). */
function sharedRows(rows: MinRows): MinRows {
  if (!(rows !== null && typeof rows === 'object' && rows.values instanceof BigUint64Array && rows.offsets instanceof Uint32Array && rows.offsets.length >= 1)) {
    throw new ResembleError('E_INPUT', 'estimateMinPairs: expected rows { values: BigUint64Array, offsets: Uint32Array }');
  }
  if (!sharedMemory()) throw new ResembleError('E_OPTION', 'estimateMinPairs needs SharedArrayBuffer (in browsers, a cross-origin isolated page)', { option: 'pool' });
  const isShared = (a: ArrayBufferView) => a.buffer instanceof SharedArrayBuffer;
  if (isShared(rows.values) && isShared(rows.offsets)) return rows;
  const cached = sharedCopies.get(rows.values);
  if (cached && cached.from === rows.offsets) return cached.rows;
  const values = isShared(rows.values) ? rows.values : new BigUint64Array(new SharedArrayBuffer(rows.values.byteLength));
  if (values !== rows.values) values.set(rows.values);
  const offsets = new Uint32Array(new SharedArrayBuffer(rows.offsets.byteLength));
  offsets.set(rows.offsets);
  const copy = { values, offsets };
  sharedCopies.set(rows.values, { from: rows.offsets, rows: copy });
  return copy;
}

/** n empty estimates. */
function emptyEstimates(n: number): MinChunkEstimates {
  return { index: new Uint32Array(n), shared: new Uint32Array(n), resemblance: new Float64Array(n), containmentAB: new Float64Array(n), containmentBA: new Float64Array(n) };
}

function checkList(docs: unknown, what: string): number {
  if (docs === null || typeof docs !== 'object' || typeof (docs as ArrayLike<unknown>).length !== 'number') {
    throw new ResembleError('E_INPUT', `${what}: expected an array of documents, got ${docs === null ? 'null' : typeof docs}`);
  }
  return (docs as ArrayLike<unknown>).length;
}

/**
 * Takes each batch's columns (in document order) and the rejected documents; returns one SketchSet
 * as sketchMany would build it. `shared`: its values and offsets on SharedArrayBuffers, for worker
 * threads to read in place (estimateMinPairs) without a copy.
 */
export function assembleSketchSet(params: SketchParams, n: number, batches: { start: number; end: number; columns?: SketchColumns }[], errors: SketchError[], shared = false): SketchSet {
  let nv = 0, nss = 0;
  for (const b of batches) { nv += b.columns!.values.length; nss += b.columns!.superShingles?.values.length ?? 0; }
  const values = shared ? new BigUint64Array(new SharedArrayBuffer(nv * 8)) : new BigUint64Array(nv);
  const offsets = shared ? new Uint32Array(new SharedArrayBuffer((n + 1) * 4)) : new Uint32Array(n + 1);
  const cardinality = new Float64Array(n);
  const tokens = new Uint32Array(n);
  const modulusLog2 = new Uint8Array(n);
  const rawFp = new BigUint64Array(n), lexicalFp = new BigUint64Array(n), shingleFp = new BigUint64Array(n);
  const signature = params.k > 0 ? new BigUint64Array(n * params.k) : undefined;
  const superShingles = params.superShingle > 0 ? { values: new BigUint64Array(nss), offsets: new Uint32Array(n + 1) } : undefined;
  const templateTokens = params.content === 'main' ? new Uint32Array(n) : undefined;
  let at = 0, sat = 0;
  for (const { start, end, columns: c } of batches) {
    const count = end - start;
    values.set(c!.values, at);
    for (let d = 1; d <= count; d++) offsets[start + d] = at + c!.offsets[d];
    at += c!.values.length;
    cardinality.set(c!.cardinality, start);
    tokens.set(c!.tokens, start);
    modulusLog2.set(c!.modulusLog2, start);
    rawFp.set(c!.rawFp, start);
    lexicalFp.set(c!.lexicalFp, start);
    shingleFp.set(c!.shingleFp, start);
    if (signature) signature.set(c!.signature!, start * params.k);
    if (templateTokens) templateTokens.set(c!.templateTokens!, start);
    if (superShingles) {
      const ss = c!.superShingles!;
      superShingles.values.set(ss.values, sat);
      for (let d = 1; d <= count; d++) superShingles.offsets[start + d] = sat + ss.offsets[d];
      sat += ss.values.length;
    }
  }
  return new SketchSet(params, { values, offsets, cardinality, tokens, modulusLog2, rawFp, lexicalFp, shingleFp, signature, superShingles, templateTokens }, errors);
}

/** Takes a SketchSet; returns its columns (what a sketch job sends back). */
export function columnsOf(set: SketchSet): SketchColumns {
  return {
    values: set.values, offsets: set.offsets, cardinality: set.cardinality, tokens: set.tokens,
    modulusLog2: set.modulusLog2, rawFp: set.rawFp, lexicalFp: set.lexicalFp, shingleFp: set.shingleFp,
    signature: set.signature, superShingles: set.superShingles, templateTokens: set.templateTokens,
  };
}

/** Takes sketch columns; returns the arrays they hold (for a transfer list). */
export function columnArrays(c: SketchColumns): (ArrayBufferView | undefined)[] {
  return [c.values, c.offsets, c.cardinality, c.tokens, c.modulusLog2, c.rawFp, c.lexicalFp, c.shingleFp, c.signature, c.superShingles?.values, c.superShingles?.offsets, c.templateTokens];
}

/** Rejects template tables that sketchMany would reject, before any batch is posted. */
function checkTemplates(params: SketchParams, templates: ContentTables, n: number): void {
  if (params.content !== 'main') throw new ResembleError('E_OPTION', "expected no value with content 'page' (templates apply to content 'main') for templates", { option: 'templates' });
  checkContentTables(templates, n);
}
