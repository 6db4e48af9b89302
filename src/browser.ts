// The browser entry: the core (WebAssembly inlined as base64, so `await init()` needs no file to
// serve), near-duplicate clustering, and the worker pool on Web Workers (its script,
// worker-browser.js, sits beside this bundle). No Node built-ins: it runs in pages and in workers.
export * from './index.js';
export { createPool, type BrowserPoolOptions, type Pool, type PoolOptions, type FingerprintManyOptions, type EstimateMinPairsOptions } from './workers/browser.js';
export { fileBytes, type FileBytes } from './io/file-bytes.js';
