// The pool on worker_threads. Its worker script is src/worker-node.ts: worker-node.js in the built
// package (emitted beside the chunks by the build); when running from the TypeScript sources
// (tests, `npm run bench`) the .ts file, loaded through tsx.
import { availableParallelism } from 'node:os';
import { poolWith, type PoolOptions } from '../workers/pool.js';
import { threadSpawn, workerScript } from '../workers/node.js';
import { poolOf, type Pool } from './pool.js';

export type { Pool, PoolOptions, PoolSketchOptions, FingerprintManyOptions, EstimateMinPairsOptions } from './pool.js';

/** Options of the Node pool: PoolOptions plus where the worker script is. */
export interface NodePoolOptions extends PoolOptions {
  /** The worker script, for bundles that move it. Default: worker-node.js (or .ts from sources) of this package. */
  workerUrl?: string | URL;
}

/** Takes pool options; returns a worker_threads pool (call `await init()` first, `await pool.close()` when done). */
export function createPool(options: NodePoolOptions = {}): Pool {
  const { workerUrl, ...rest } = options ?? {};
  const script = workerScript(workerUrl, [new URL('../worker-node.js', import.meta.url), new URL('../worker-node.ts', import.meta.url)]);
  return poolOf(poolWith(threadSpawn(script), availableParallelism(), rest));
}
