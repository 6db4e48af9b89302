// The browser root entry: the core (WebAssembly inlined as base64, so `await init()` needs no file to
// serve), the worker pool on Web Workers (its script, worker-browser.js, sits beside this bundle) and
// the file reader for dropped files. No Node built-ins: it runs in pages and in workers. The steps
// (clusters of a sketch set, serialization, fingerprints, …) are in `web-resemble/advanced`.
import { poolWith, type PoolOptions } from './workers/pool.js';
import { browserCores, webWorkerSpawn } from './workers/browser.js';
import { poolOf, type Pool } from './stream/pool.js';

export * from './index.js';
export type { Pool, PoolOptions, FingerprintManyOptions, EstimateMinPairsOptions } from './stream/pool.js';
export { fileBytes, type FileBytes } from './io/file-bytes.js';

/** Options of the browser pool: PoolOptions plus where the worker script is. */
export interface BrowserPoolOptions extends PoolOptions {
  /** The module worker script. Default: worker-browser.js beside this module. */
  workerUrl?: string | URL;
}

/**
 * Takes pool options; returns a Web Worker pool (call `await init()` first, `await pool.close()`
 * when done). Bundlers (Vite, webpack, esbuild, Parcel) recognise the literal
 * `new Worker(new URL('./worker-browser.js', import.meta.url), { type: 'module' })` and emit the
 * worker script as its own file; pass `workerUrl` if yours does not.
 */
export function createPool(options: BrowserPoolOptions = {}): Pool {
  const { workerUrl, ...rest } = options ?? {};
  const start = () => (workerUrl !== undefined
    ? new Worker(workerUrl, { type: 'module' })
    : new Worker(new URL('./worker-browser.js', import.meta.url), { type: 'module' }));
  return poolOf(poolWith(webWorkerSpawn(start), browserCores(), rest));
}
