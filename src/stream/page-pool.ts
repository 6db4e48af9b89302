// A pool of worker threads for the per-batch page jobs of the streaming study, signatures and
// mirrors (page-jobs.ts): each batch goes to the least busy worker as one packed buffer
// (transferred), and comes back as columns. The core's worker pool (src/workers) sketches and
// fingerprints; this one runs any PageJob, including the JavaScript text work of the study.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ResembleError, type ErrorCode } from '../errors.js';
import { compiledModule } from '../wasm/instance.js';
import { workerScript } from '../workers/node.js';
import type { PageJob, PageJobResult } from './page-jobs.js';

/** Messages to a page worker: the compiled kernels once, then batches. */
export type ToPageWorker =
  | { type: 'init'; module: WebAssembly.Module }
  | { type: 'job'; id: number; job: PageJob; bytes: Uint8Array; ends: Uint32Array; html: Uint8Array };

/** A page worker's answer to one batch. */
export type FromPageWorker = { id: number; result: PageJobResult } | { id: number; error: { code?: string; message: string } };

/** One batch of pages packed for a worker: bytes one after another, the end of each, and whether each is HTML. */
export interface PackedPages {
  bytes: Uint8Array;
  ends: Uint32Array;
  html: Uint8Array;
}

const CODES: readonly string[] = ['E_OPTION', 'E_NOT_INITIALIZED', 'E_WASM', 'E_FORMAT', 'E_PARAMS', 'E_INPUT', 'E_IO', 'E_ENGINE'];

/** The worker script: page-worker.js beside this module in the built package, the .ts sibling from sources (through tsx). */
function pageWorkerScript(): { url: URL; tsx?: string } {
  const js = new URL('./page-worker.js', import.meta.url);
  if (js.protocol !== 'file:' || existsSync(fileURLToPath(js))) return workerScript(js);
  return workerScript(new URL('./page-worker.ts', import.meta.url));
}

interface Slot {
  worker: Worker;
  inflight: Map<number, { resolve(r: PageJobResult): void; reject(e: unknown): void }>;
}

/** Worker threads running page jobs; `run` answers with exactly what `runPageJob` on this thread would. */
export class PagePool {
  private slots: Slot[] = [];
  private nextId = 1;
  private closed = false;

  constructor(readonly size: number) {}

  /** Takes a job and a packed batch (its buffers are transferred: do not use them after); returns the batch's columns. */
  run(job: PageJob, batch: PackedPages): Promise<PageJobResult> {
    if (this.closed) return Promise.reject(new ResembleError('E_NOT_INITIALIZED', 'the page pool is closed'));
    let slot: Slot | undefined;
    for (const s of this.slots) if (!slot || s.inflight.size < slot.inflight.size) slot = s;
    if (!slot || (slot.inflight.size > 0 && this.slots.length < this.size)) slot = this.start();
    const id = this.nextId++;
    const target = slot;
    return new Promise<PageJobResult>((resolve, reject) => {
      target.inflight.set(id, { resolve, reject });
      target.worker.ref();
      const msg: ToPageWorker = { type: 'job', id, job, bytes: batch.bytes, ends: batch.ends, html: batch.html };
      const transfer = [batch.bytes.buffer, batch.ends.buffer, batch.html.buffer].filter((b): b is ArrayBuffer => b instanceof ArrayBuffer);
      target.worker.postMessage(msg, [...new Set(transfer)]);
    });
  }

  /** Stops every worker; batches still running are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots;
    this.slots = [];
    for (const s of slots) this.failAll(s, new ResembleError('E_NOT_INITIALIZED', 'the page pool was closed while a batch ran'));
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private start(): Slot {
    const script = pageWorkerScript();
    const worker = script.tsx
      ? new Worker(`import(${JSON.stringify(script.tsx)}).then((api) => { api.register(); return import(${JSON.stringify(script.url.href)}); })`, { eval: true })
      : new Worker(script.url);
    const slot: Slot = { worker, inflight: new Map() };
    let over = false;
    const failure = (e: Error) => {
      if (over) return;
      over = true;
      this.slots = this.slots.filter((s) => s !== slot);
      this.failAll(slot, new ResembleError('E_WASM', `a page worker stopped: ${e.message}`));
      void worker.terminate().catch(() => undefined);
    };
    worker.on('message', (msg: FromPageWorker) => {
      const job = slot.inflight.get(msg.id);
      if (!job) return;
      slot.inflight.delete(msg.id);
      if (slot.inflight.size === 0) worker.unref();
      if ('error' in msg) job.reject(new ResembleError(msg.error.code !== undefined && CODES.includes(msg.error.code) ? (msg.error.code as ErrorCode) : 'E_WASM', `page worker: ${msg.error.message}`));
      else job.resolve(msg.result);
    });
    worker.on('error', failure);
    worker.on('messageerror', failure);
    worker.on('exit', (code) => failure(new Error(`worker exited with code ${code}`)));
    worker.postMessage({ type: 'init', module: compiledModule() } satisfies ToPageWorker);
    this.slots.push(slot);
    return slot;
  }

  private failAll(slot: Slot, e: unknown): void {
    for (const job of slot.inflight.values()) job.reject(e);
    slot.inflight.clear();
  }
}
