// The pool on Web Workers (module workers). Bundlers (Vite, webpack, esbuild, Parcel) recognise
// the literal `new Worker(new URL('./worker-browser.js', import.meta.url), { type: 'module' })`
// and emit the worker script as its own file; pass `workerUrl` if yours does not.
import { poolWith, type Pool, type PoolOptions, type Spawn } from './pool.js';
import type { FromWorker } from './protocol.js';

export type { Pool, PoolOptions, FingerprintManyOptions, EstimateMinPairsOptions } from './pool.js';

/** Options of the browser pool: PoolOptions plus where the worker script is. */
export interface BrowserPoolOptions extends PoolOptions {
  /** The module worker script. Default: worker-browser.js beside this module. */
  workerUrl?: string | URL;
}

/** Takes pool options; returns a Web Worker pool (call `await init()` first, `await pool.close()` when done). */
export function createPool(options: BrowserPoolOptions = {}): Pool {
  const { workerUrl, ...rest } = options ?? {};
  const spawn: Spawn = (events) => {
    const worker = workerUrl !== undefined
      ? new Worker(workerUrl, { type: 'module' })
      : new Worker(new URL('./worker-browser.js', import.meta.url), { type: 'module' });
    let over = false;
    const failure = (e: Error) => { if (!over) { over = true; events.failure(e); } };
    worker.onmessage = (e: MessageEvent<FromWorker>) => events.message(e.data);
    worker.onerror = (e: ErrorEvent) => { e.preventDefault(); failure(new Error(e.message || 'error in worker script')); };
    worker.onmessageerror = () => failure(new Error('a message from the worker could not be read'));
    return {
      post: (msg, transfer) => worker.postMessage(msg, transfer),
      busy: () => undefined,
      terminate: async () => { over = true; worker.terminate(); },
    };
  };
  const cores = typeof navigator !== 'undefined' && navigator.hardwareConcurrency > 0 ? navigator.hardwareConcurrency : 4;
  return poolWith(spawn, cores, rest);
}
