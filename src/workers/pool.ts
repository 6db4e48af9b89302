// The pool itself, the same in Node and browsers: only how a worker is spawned differs
// (./node.ts, ./browser.ts). A call is cut into batches of consecutive documents; each batch is
// packed into one buffer, transferred to an idle worker, sketched there by the same sketchMany the
// main thread would run, and its columns are copied back into place by document index. So the
// result is bit-identical to sketchMany for any worker count, batch split or finishing order.
// A chunk of MIN_s pairs to estimate is one call of one batch; the sketch rows stay in shared
// memory, so a chunk costs its two id columns, not the rows.
import { intOption, numberOption, optionError, rejectUnknown, ResembleError, type ErrorCode } from '../errors.js';
import { byteBound, checkDoc, type DocInput } from '../sketch/input.js';
import { resolveSketchOptions, type SketchOptions, type SketchParams } from '../sketch/options.js';
import { SketchSet, type SketchColumns, type SketchError } from '../sketch/sketch-set.js';
import { sketchMany, type SketchManyOptions } from '../sketch/sketch.js';
import { checkContentTables, type ContentTables } from '../sketch/content.js';
import type { SiteTemplate } from '../template/learn.js';
import { compiledModule } from '../wasm/instance.js';
import type { MinChunkEstimates, MinRows } from '../cluster/estimate.js';
import type { WalkedPairs, WalkJob } from '../cluster/walk.js';
import type { LineJob } from '../io/read-back.js';
import { packBatch, type EstimateMessage, type FromWorker, type JobMessage, type TemplateJob, type ToWorker } from './protocol.js';

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

/** How the pool sees one worker, whatever runs it. */
export interface WorkerHandle {
  post(msg: ToWorker, transfer: ArrayBuffer[]): void;
  /** Busy workers keep a Node process alive; idle ones do not (so a forgotten close() never hangs it). */
  busy(busy: boolean): void;
  terminate(): Promise<void>;
}

/** What a spawned worker reports back. */
export interface WorkerEvents {
  message(msg: FromWorker): void;
  /** The worker died (uncaught error, exit, unreadable message); its batches fail. */
  failure(error: Error): void;
}

/** Starts one worker. */
export type Spawn = (events: WorkerEvents) => WorkerHandle;

/** Options of createPool; every one has a default. */
export interface PoolOptions {
  /** Worker threads, 1..256. Default: the hardware threads available (os.availableParallelism(), navigator.hardwareConcurrency). */
  workers?: number;
  /** Target input bytes per batch, 1 KiB..256 MiB. Default: total / (4 · workers), clamped to 64 KiB..4 MiB, so
   *  every worker gets several batches (load balance, progress) and a batch's arena stays small. */
  batchBytes?: number;
  /** Most documents per batch, 1..65536. Default 2048. */
  batchDocs?: number;
}

/** Progress callback of fingerprintMany: documents done so far and in total. */
export interface FingerprintManyOptions {
  onProgress?: (done: number, total: number) => void;
}

/** Options of Pool.estimateMinPairs. */
export interface EstimateMinPairsOptions {
  /** The sketch size (params.s of the rows' sketches). */
  s: number;
  /** Pairs whose resemblance and containments are all below this are left out (default 0). */
  floor?: number;
}

/** A pool of workers sketching batches in parallel; results equal the single-threaded functions'. */
export interface Pool {
  /** Number of workers the pool may run. */
  readonly size: number;
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

// Batches posted to one worker before it answers: two, so it never waits for the main thread to pack the next.
const DEPTH = 2;
const AUTO_MIN = 64 << 10, AUTO_MAX = 4 << 20;

interface Call {
  kind: 'sketch' | 'fingerprint' | 'estimate' | 'template';
  docs: ArrayLike<unknown>;
  options?: SketchOptions;
  /** content 'main': the tables of every document (each batch gets its slice). */
  templates?: ContentTables;
  /** estimate: the one chunk's message, without its id. */
  estimate?: Omit<EstimateMessage, 'id'>;
  /** A template call: how to learn (its documents are one batch). */
  template?: TemplateJob;
  /** A sketch call of JSONL lines read back (each batch gets its slice). */
  lines?: LineJob;
  n: number;
  results: ({ start: number; end: number; columns?: SketchColumns; lineErrors?: { index: number; message: string }[]; fingerprints?: BigUint64Array; estimates?: MinChunkEstimates; walked?: WalkedPairs; template?: { table: BigUint64Array; site: SiteTemplate } } | undefined)[];
  remaining: number;
  done: number;
  onProgress?: (done: number, total: number) => void;
  failed: boolean;
  resolve(): void;
  reject(e: unknown): void;
}

/** A batch of a call; `alone` once a worker stopped while holding it beside others: it is then run on a worker with nothing else, so a batch that stops a worker again is the one blamed. */
interface Task { call: Call; batch: number; start: number; end: number; alone?: boolean }

interface Slot { handle: WorkerHandle; inflight: Map<number, Task> }

/** How many batches a worker holds: a worker running a batch alone takes no other. */
function load(slot: Slot | undefined): number {
  if (!slot) return 0.5;
  for (const t of slot.inflight.values()) if (t.alone) return DEPTH;
  return slot.inflight.size;
}

/** Takes a spawner and pool options; returns a Pool (workers start lazily, on the first batch that needs them). */
export function poolWith(spawn: Spawn, defaultWorkers: number, options: PoolOptions = {}): Pool {
  if (options === null || typeof options !== 'object') throw new ResembleError('E_OPTION', 'expected an options object for createPool');
  rejectUnknown(options, ['workers', 'batchBytes', 'batchDocs'], 'createPool');
  const size = intOption('workers', options.workers, Math.min(256, Math.max(1, defaultWorkers)), 1, 256);
  const batchBytes = intOption('batchBytes', options.batchBytes, 0, 1024, 256 << 20);
  const batchDocs = intOption('batchDocs', options.batchDocs, 2048, 1, 65536);
  return new WorkerPool(spawn, size, batchBytes, batchDocs);
}

class WorkerPool implements Pool {
  private slots: (Slot | undefined)[];
  private queue: Task[] = [];
  private head = 0; // queue[head..] waits: shift() would move the whole queue each batch
  private calls = new Set<Call>();
  private nextId = 1;
  private closed = false;
  /** Input buffers the workers handed back, to pack later batches into (no fresh allocation per batch). */
  private spare: ArrayBuffer[] = [];

  constructor(private spawn: Spawn, readonly size: number, private batchBytes: number, private batchDocs: number) {
    this.slots = new Array(size).fill(undefined);
  }

  async sketchMany(docs: ArrayLike<DocInput>, options: PoolSketchOptions = {}): Promise<SketchSet> {
    const { onProgress, templates, lines, batchBytes, ...rest } = options ?? {};
    const params = resolveSketchOptions(rest);
    const target = batchBytes === undefined ? undefined : intOption('batchBytes', batchBytes, 0, 1024, 256 << 20);
    this.usable();
    const n = checkList(docs, 'sketchMany');
    if (templates !== undefined) checkTemplates(params, templates, n);
    if (n === 0) return sketchMany([], rest);
    const errors: SketchError[] = [];
    for (let i = 0; i < n; i++) {
      const bad = checkDoc(docs[i]);
      if (bad) errors.push({ index: i, message: `document ${i}: ${bad}` });
    }
    if (lines !== undefined && !(lines.offsets?.length === n && lines.sizes?.length === n)) throw optionError('lines', `offsets and sizes of ${n} documents`, 'other lengths');
    const call = await this.run('sketch', docs, rest, onProgress, templates, undefined, lines, target);
    for (const r of call.results) for (const e of r!.lineErrors ?? []) errors.push({ index: r!.start + e.index, message: e.message });
    if (lines) errors.sort((x, y) => x.index - y.index);
    return assembleSketchSet(params, n, call.results.map((r) => r!), errors);
  }

  async fingerprintMany(docs: ArrayLike<DocInput>, options: FingerprintManyOptions = {}): Promise<BigUint64Array> {
    options ??= {};
    rejectUnknown(options, ['onProgress'], 'fingerprintMany');
    const n = this.checkDocs(docs, 'fingerprintMany');
    const out = new BigUint64Array(n);
    if (n === 0) return out;
    const call = await this.run('fingerprint', docs, undefined, options.onProgress);
    for (const r of call.results) out.set(r!.fingerprints!, r!.start);
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
    this.usable();
    const shared = sharedRows(rows);
    if (a.length === 0) return emptyEstimates(0);
    const call = await this.runEstimate({ type: 'estimate', rows: shared, a, b, s, floor });
    return call.results[0]!.estimates!;
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
    this.usable();
    const shared = sharedRows(rows);
    const none = new Uint32Array(0);
    const call = await this.runEstimate({ type: 'estimate', rows: shared, a: none, b: none, s, floor, walk: job }, Math.max(1, job.to - job.from));
    const r = call.results[0]!;
    return { estimates: r.estimates!, walked: r.walked! };
  }

  async learnTemplate(docs: ArrayLike<DocInput>, how: TemplateJob): Promise<{ table: BigUint64Array; site: SiteTemplate }> {
    this.checkDocs(docs, 'learnTemplate');
    if (how === null || typeof how !== 'object' || typeof how.key !== 'string') throw new ResembleError('E_OPTION', 'learnTemplate: expected { key, share, heavy }');
    // both required (null is rejected)
    const share = numberOption('share', how.share ?? null, 0, 0, 1), heavy = numberOption('heavy', how.heavy ?? null, 0, 0, 1);
    const call = await this.run('template', docs, undefined, undefined, undefined, { key: how.key, share, heavy });
    return call.results[0]!.template!;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.queue = [];
    this.head = 0;
    for (const call of this.calls) this.fail(call, 'E_NOT_INITIALIZED', 'the worker pool was closed while this call ran');
    const stopping = this.slots.map((s) => s?.handle.terminate());
    this.slots.fill(undefined);
    await Promise.all(stopping);
  }

  /** Takes a call's documents; returns their count once the pool is usable and each is a string or bytes (E_INPUT naming the first that is not). */
  private checkDocs(docs: ArrayLike<DocInput>, what: string): number {
    this.usable();
    const n = checkList(docs, what);
    for (let i = 0; i < n; i++) {
      const bad = checkDoc(docs[i]);
      if (bad) throw new ResembleError('E_INPUT', `${what}: document ${i}: ${bad}`, { index: i });
    }
    return n;
  }

  private usable(): void {
    if (this.closed) throw new ResembleError('E_NOT_INITIALIZED', 'the worker pool is closed: create a new one with createPool()');
    compiledModule(); // throws E_NOT_INITIALIZED before `await init()`
  }

  private runEstimate(estimate: Omit<EstimateMessage, 'id'>, n = estimate.a.length): Promise<Call> {
    return new Promise<Call>((resolve, reject) => {
      const call: Call = {
        kind: 'estimate', docs: [], estimate, n, results: [undefined], remaining: 1, done: 0, failed: false,
        resolve: () => resolve(call), reject,
      };
      this.calls.add(call);
      this.queue.push({ call, batch: 0, start: 0, end: call.n });
      this.dispatch();
    });
  }

  private run(kind: Call['kind'], docs: ArrayLike<unknown>, options: SketchOptions | undefined, onProgress?: Call['onProgress'], templates?: ContentTables, template?: TemplateJob, lines?: LineJob, batchBytes?: number): Promise<Call> {
    // a template is learnt from all its pages at once
    const bounds = kind === 'template' ? [0, docs.length] : this.plan(docs, batchBytes);
    return new Promise<Call>((resolve, reject) => {
      const call: Call = {
        kind, docs, options, templates, template, lines, n: docs.length, results: new Array(bounds.length - 1).fill(undefined),
        remaining: bounds.length - 1, done: 0, onProgress, failed: false,
        resolve: () => resolve(call), reject,
      };
      this.calls.add(call);
      const tasks: Task[] = [];
      for (let b = 0; b + 1 < bounds.length; b++) tasks.push({ call, batch: b, start: bounds[b], end: bounds[b + 1] });
      // templates go first: the pages of a site wait for them, and they are few
      if (kind === 'template') this.queue.splice(this.head, 0, ...tasks);
      else for (const t of tasks) this.queue.push(t);
      this.dispatch();
    });
  }

  /** Batch boundaries: consecutive documents up to the byte target (at least one each) and batchDocs. */
  private plan(docs: ArrayLike<unknown>, batchBytes = this.batchBytes): number[] {
    const n = docs.length;
    const sizes = new Float64Array(n);
    let total = 0;
    for (let i = 0; i < n; i++) {
      const d = docs[i];
      sizes[i] = checkDoc(d) === undefined ? byteBound(d as DocInput) : 0;
      total += sizes[i];
    }
    const target = batchBytes || Math.min(AUTO_MAX, Math.max(AUTO_MIN, Math.ceil(total / (4 * this.size))));
    const bounds = [0];
    let i = 0;
    while (i < n) {
      let j = i, bytes = 0;
      while (j < n && j - i < this.batchDocs && (j === i || bytes + sizes[j] <= target)) bytes += sizes[j++];
      bounds.push(j);
      i = j;
    }
    return bounds;
  }

  /** Hands queued batches to the least-loaded workers (an unstarted slot counts as idle and is started). */
  private dispatch(): void {
    while (this.head < this.queue.length && !this.closed) {
      // an idle worker first, then starting a new one, then queueing behind a busy one
      const task = this.queue[this.head];
      // a batch run alone waits for a worker with nothing in flight (one of a failed call waits for none)
      let best = -1, least: number = task.alone ? 1 : DEPTH;
      for (let s = 0; s < this.size && !task.call.failed; s++) {
        const l = load(this.slots[s]);
        if (l < least) { best = s; least = l; }
      }
      if (best < 0 && !task.call.failed) return;
      // A dispatched task leaves the queue at once: each holds its call's documents, and a caller
      // that keeps calls queued (a stream) may never let the queue empty.
      this.queue[this.head++] = undefined as unknown as Task;
      if (this.head === this.queue.length) { this.queue = []; this.head = 0; } else if (this.head >= 1024 && 2 * this.head >= this.queue.length) { this.queue = this.queue.slice(this.head); this.head = 0; }
      if (task.call.failed) continue;
      let slot = this.slots[best];
      if (!slot) {
        try {
          slot = this.start(best);
        } catch (e) {
          this.fail(task.call, undefined, `could not start a worker: ${(e as Error).message}`, task);
          continue;
        }
      }
      const id = this.nextId++;
      const estimate = task.call.estimate;
      if (estimate) {
        // The caller keeps its pair columns: a column that is its whole buffer is copied by the
        // message itself (nothing allocated here), a view into a larger one is sliced and transferred.
        const whole = (x: Uint32Array) => x.byteOffset === 0 && x.byteLength === x.buffer.byteLength;
        const a = whole(estimate.a) ? estimate.a : estimate.a.slice(), b = whole(estimate.b) ? estimate.b : estimate.b.slice();
        slot.inflight.set(id, task);
        slot.handle.busy(true);
        slot.handle.post({ ...estimate, a, b, id }, [a, b].filter((x) => x !== estimate.a && x !== estimate.b).map((x) => x.buffer as ArrayBuffer));
        continue;
      }
      let job: JobMessage;
      try {
        const t = task.call.templates;
        const options = t ? { ...task.call.options, templates: { values: t.values, offsets: t.offsets, docTable: t.docTable.slice(task.start, task.end) } } : task.call.options;
        const l = task.call.lines;
        const lines = l ? { read: l.read, offsets: l.offsets.slice(task.start, task.end), sizes: l.sizes.slice(task.start, task.end) } : undefined;
        job = { type: task.call.kind as JobMessage['type'], id, ...packBatch(task.call.docs, task.start, task.end, () => this.spare.pop()), options, template: task.call.template, lines };
      } catch (e) {
        this.fail(task.call, 'E_INPUT', (e as Error).message, task);
        continue;
      }
      slot.inflight.set(id, task);
      slot.handle.busy(true);
      slot.handle.post(job, [job.bytes.buffer as ArrayBuffer, job.ends.buffer as ArrayBuffer, job.rejected.buffer as ArrayBuffer]);
    }
  }

  private start(s: number): Slot {
    let slot: Slot | undefined;
    const handle = this.spawn({
      message: (msg) => this.onMessage(slot!, msg),
      failure: (e) => this.onFailure(slot!, e),
    });
    slot = { handle, inflight: new Map() };
    this.slots[s] = slot;
    handle.post({ type: 'init', module: compiledModule() }, []);
    return slot;
  }

  private onMessage(slot: Slot, msg: FromWorker): void {
    if (msg.type !== 'error' && msg.spare && this.spare.length < 2 * DEPTH * this.size) this.spare.push(msg.spare);
    const task = slot.inflight.get(msg.id);
    if (!task) return;
    slot.inflight.delete(msg.id);
    if (slot.inflight.size === 0) slot.handle.busy(false);
    const call = task.call;
    if (msg.type === 'error') this.fail(call, msg.code, msg.message, task);
    else if (!call.failed) {
      call.results[task.batch] = msg.type === 'sketch'
        ? { start: task.start, end: task.end, columns: msg.columns, lineErrors: msg.lineErrors }
        : msg.type === 'fingerprint'
          ? { start: task.start, end: task.end, fingerprints: msg.fingerprints }
          : msg.type === 'template'
            ? { start: task.start, end: task.end, template: { table: msg.table, site: msg.site } }
            : { start: task.start, end: task.end, estimates: msg.estimates, walked: msg.walked };
      call.done += task.end - task.start;
      call.remaining--;
      try {
        call.onProgress?.(call.done, call.n);
      } catch (e) {
        this.fail(call, undefined, `onProgress threw: ${(e as Error).message}`);
      }
      if (call.remaining === 0 && !call.failed) {
        this.calls.delete(call);
        call.resolve();
      }
    }
    this.dispatch();
  }

  private onFailure(slot: Slot, error: Error): void {
    const s = this.slots.indexOf(slot);
    if (s < 0) return;
    this.slots[s] = undefined;
    void slot.handle.terminate().catch(() => undefined);
    // Which batch stopped the worker is known only when it held one: the replies to batches it
    // finished may not have arrived yet when the failure does. So with several in flight, the
    // unfinished ones of live calls are run again, each alone on a worker, ahead of the queue.
    const held = [...slot.inflight.values()];
    slot.inflight.clear();
    if (held.length === 1) this.fail(held[0].call, undefined, `the worker stopped: ${error.message}`, held[0]);
    else {
      const again = held.filter((t) => !t.call.failed);
      for (const t of again) t.alone = true;
      this.queue.splice(this.head, 0, ...again);
    }
    this.dispatch();
  }

  private fail(call: Call, code: string | undefined, message: string, task?: Task): void {
    if (call.failed) return;
    call.failed = true;
    this.calls.delete(call);
    this.queue = this.queue.slice(this.head).filter((t) => t.call !== call);
    this.head = 0;
    // a walk names its range of documents
    const walk = call.estimate?.walk;
    const [first, last] = walk ? [walk.from, walk.to - 1] : task ? [task.start, task.end - 1] : [0, -1];
    const where = task ? `${call.kind === 'estimate' && !walk ? 'pairs' : 'documents'} ${first}..${last}: ` : '';
    const detail = task ? { first, last } : {};
    call.reject(new ResembleError(errorCode(code), `worker pool ${walk ? 'walkMinPairs' : CALL_NAMES[call.kind]}: ${where}${message}`, detail));
  }
}

const CALL_NAMES: Record<Call['kind'], string> = { sketch: 'sketchMany', fingerprint: 'fingerprintMany', estimate: 'estimateMinPairs', template: 'learnTemplate' };

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

const CODES: readonly string[] = ['E_OPTION', 'E_NOT_INITIALIZED', 'E_WASM', 'E_FORMAT', 'E_PARAMS', 'E_INPUT', 'E_IO', 'E_ENGINE'];

function errorCode(code: string | undefined): ErrorCode {
  return code !== undefined && CODES.includes(code) ? (code as ErrorCode) : 'E_WASM';
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

/** Rejects template tables that sketchMany would reject, before any batch is posted. */
function checkTemplates(params: SketchParams, templates: ContentTables, n: number): void {
  if (params.content !== 'main') throw new ResembleError('E_OPTION', "expected no value with content 'page' (templates apply to content 'main') for templates", { option: 'templates' });
  checkContentTables(templates, n);
}
