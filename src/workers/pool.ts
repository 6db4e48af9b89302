// The one worker pool, the same in Node and browsers: only how a worker is spawned differs
// (./node.ts, ./browser.ts). It knows no capability: a call is a kind (a name the workers'
// registry answers, src/jobs.ts) and a list of batches, each packed into its message only when a
// worker takes it, so a call's documents are not copied before they are needed. Batches go to
// the least-loaded worker, two at a time so a worker never waits for the main thread; results
// come back by batch index, so the caller puts them in place whatever the finishing order. A
// worker that dies fails the batch it held; with several, each is run again alone to find it.
import { ERROR_CODES, intOption, rejectUnknown, ResembleError, type ErrorCode } from '../errors.js';
import { compiledModule } from '../wasm/instance.js';
import type { FromWorker, ToWorker } from './protocol.js';

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

/** One batch of a call: the items it covers, and how to make its message once a worker takes it. */
export interface Batch {
  /** Items [start, end) of the call (documents, pairs): what progress counts. */
  start: number;
  end: number;
  /** The items an error names (default start..end − 1). */
  where?: { first: number; last: number };
  /**
   * Makes the batch's payload and the buffers to transfer with it; called when a worker takes the
   * batch. `spare()` gives a buffer a worker handed back, to pack into (or undefined).
   */
  pack(spare: () => ArrayBuffer | undefined): { job: unknown; transfer: ArrayBuffer[] };
}

/** How a call is run and named. */
export interface CallOptions {
  /** The call's name in errors (`worker pool sketchMany: …`). */
  name: string;
  /** What a batch's items are, in errors (default documents). */
  unit?: string;
  /** Items in all, for progress (default: the end of the last batch). */
  total?: number;
  /** Called as batches are done: items done so far and in total. */
  onProgress?: (done: number, total: number) => void;
  /** Run ahead of batches already waiting (a few items that others wait for). */
  first?: boolean;
}

/** Threads running jobs of registered kinds; results equal what the kinds compute on one thread. */
export interface Workers {
  /** Number of workers the pool may run. */
  readonly size: number;
  /** The batch size the pool was given (bytes, 0: automatic) and the most documents per batch. */
  readonly batchBytes: number;
  readonly batchDocs: number;
  /** Throws E_NOT_INITIALIZED when the pool is closed or the kernels are not compiled (`await init()`). */
  usable(): void;
  /** Runs a call of `kind` cut into `batches`; resolves with each batch's result, by batch index. */
  run<R>(kind: string, batches: readonly Batch[], options: CallOptions): Promise<R[]>;
  /** Stops every worker; calls still running are rejected. */
  close(): Promise<void>;
}

// Batches posted to one worker before it answers: two, so it never waits for the main thread to pack the next.
const DEPTH = 2;

interface Call {
  kind: string;
  options: CallOptions;
  total: number;
  results: unknown[];
  remaining: number;
  done: number;
  failed: boolean;
  resolve(): void;
  reject(e: unknown): void;
}

/** A batch of a call; `alone` once a worker stopped while holding it beside others: it is then run on a worker with nothing else, so a batch that stops a worker again is the one blamed. */
interface Task { call: Call; index: number; batch: Batch; alone?: boolean }

interface Slot { handle: WorkerHandle; inflight: Map<number, Task> }

/** How many batches a worker holds: a worker running a batch alone takes no other. */
function load(slot: Slot | undefined): number {
  if (!slot) return 0.5;
  for (const t of slot.inflight.values()) if (t.alone) return DEPTH;
  return slot.inflight.size;
}

/** Takes a spawner, the default worker count and pool options; returns the pool (workers start lazily, on the first batch that needs them). */
export function poolWith(spawn: Spawn, defaultWorkers: number, options: PoolOptions = {}): Workers {
  if (options === null || typeof options !== 'object') throw new ResembleError('E_OPTION', 'expected an options object for createPool');
  rejectUnknown(options, ['workers', 'batchBytes', 'batchDocs'], 'createPool');
  const size = intOption('workers', options.workers, Math.min(256, Math.max(1, defaultWorkers)), 1, 256);
  const batchBytes = intOption('batchBytes', options.batchBytes, 0, 1024, 256 << 20);
  const batchDocs = intOption('batchDocs', options.batchDocs, 2048, 1, 65536);
  return new WorkerPool(spawn, size, batchBytes, batchDocs);
}

class WorkerPool implements Workers {
  private slots: (Slot | undefined)[];
  private queue: Task[] = [];
  private head = 0; // queue[head..] waits: shift() would move the whole queue each batch
  private calls = new Set<Call>();
  private nextId = 1;
  private closed = false;
  /** Input buffers the workers handed back, to pack later batches into (no fresh allocation per batch). */
  private spare: ArrayBuffer[] = [];

  constructor(private spawn: Spawn, readonly size: number, readonly batchBytes: number, readonly batchDocs: number) {
    this.slots = new Array(size).fill(undefined);
  }

  usable(): void {
    if (this.closed) throw new ResembleError('E_NOT_INITIALIZED', 'the worker pool is closed: create a new one with createPool()');
    compiledModule(); // throws E_NOT_INITIALIZED before `await init()`
  }

  run<R>(kind: string, batches: readonly Batch[], options: CallOptions): Promise<R[]> {
    this.usable();
    return new Promise<R[]>((resolve, reject) => {
      const call: Call = {
        kind, options, total: options.total ?? (batches.length ? batches[batches.length - 1].end : 0),
        results: new Array(batches.length).fill(undefined), remaining: batches.length, done: 0, failed: false,
        resolve: () => resolve(call.results as R[]), reject,
      };
      if (batches.length === 0) return call.resolve();
      this.calls.add(call);
      const tasks = batches.map((batch, index): Task => ({ call, index, batch }));
      if (options.first) this.queue.splice(this.head, 0, ...tasks);
      else for (const t of tasks) this.queue.push(t);
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.queue = [];
    this.head = 0;
    for (const call of this.calls) this.fail(call, 'E_NOT_INITIALIZED', 'the worker pool was closed while this call ran');
    const stopping = this.slots.map((s) => s?.handle.terminate());
    this.slots.fill(undefined);
    // The process stays alive until the workers have stopped: a pool closed while its workers ran
    // (a run cancelled) would otherwise leave its caller's promise unsettled when nothing else holds
    // the event loop (idle workers are unref'd).
    const alive = setInterval(() => {}, 1 << 30);
    try {
      await Promise.all(stopping);
    } finally {
      clearInterval(alive);
    }
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
      let packed: { job: unknown; transfer: ArrayBuffer[] };
      try {
        packed = task.batch.pack(() => this.spare.pop());
      } catch (e) {
        this.fail(task.call, 'E_INPUT', (e as Error).message, task);
        continue;
      }
      slot.inflight.set(id, task);
      slot.handle.busy(true);
      slot.handle.post({ type: 'job', kind: task.call.kind, id, job: packed.job }, packed.transfer);
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
      call.results[task.index] = msg.result;
      call.done += task.batch.end - task.batch.start;
      call.remaining--;
      try {
        call.options.onProgress?.(call.done, call.total);
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
    const b = task?.batch;
    const { first, last } = b ? b.where ?? { first: b.start, last: b.end - 1 } : { first: 0, last: -1 };
    const where = b ? `${call.options.unit ?? 'documents'} ${first}..${last}: ` : '';
    const detail = b ? { first, last } : {};
    call.reject(new ResembleError(errorCode(code), `worker pool ${call.options.name}: ${where}${message}`, detail));
  }
}

/** Takes a worker's error code; returns it when it is one of ours, else E_WASM. */
export function errorCode(code: string | undefined): ErrorCode {
  return code !== undefined && Object.hasOwn(ERROR_CODES, code) ? (code as ErrorCode) : 'E_WASM';
}
