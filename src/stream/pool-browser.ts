// The browser build's src/stream/pool-node.ts (rollup.config.mjs puts it in that module's place):
// the pool of the entry points on Web Workers, started from the worker script the browser entry
// names (src/browser.ts, so that bundlers see the literal `new Worker(new URL(...))`).
import { poolWith, type PoolOptions } from '../workers/pool.js';
import { browserCores, webWorkerSpawn } from '../workers/browser.js';
import { poolOf, type Pool } from './pool.js';

export type { Pool, PoolOptions, PoolSketchOptions, FingerprintManyOptions, EstimateMinPairsOptions } from './pool.js';

let starter: (() => Worker) | undefined;

/** Takes how to start one pool worker (a module Web Worker of worker-browser.js); the browser entry calls it once as it loads. */
export function useWorkerScript(start: () => Worker): void {
  starter = start;
}

/** Takes pool options; returns a Web Worker pool started as the browser entry says. */
export function createPool(options: PoolOptions = {}): Pool {
  const start = starter;
  if (!start) throw new Error('createPool: no worker script (load web-resemble/browser first)');
  return poolOf(poolWith(webWorkerSpawn(start), browserCores(), options));
}
