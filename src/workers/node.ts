// The pool on worker_threads. The worker script sits beside this module: worker-node.js in the
// built package; when running from the TypeScript sources (tests, `npm run bench`) it is the .ts
// sibling, loaded through tsx.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ResembleError } from '../errors.js';
import { poolWith, type Pool, type PoolOptions, type Spawn } from './pool.js';
import type { FromWorker } from './protocol.js';

export type { Pool, PoolOptions, PoolSketchOptions, FingerprintManyOptions, EstimateMinPairsOptions } from './pool.js';

/** Options of the Node pool: PoolOptions plus where the worker script is. */
export interface NodePoolOptions extends PoolOptions {
  /** The worker script, for bundles that move it. Default: worker-node.js (or .ts from sources) beside this module. */
  workerUrl?: string | URL;
}

/** Takes pool options; returns a worker_threads pool (call `await init()` first, `await pool.close()` when done). */
export function createPool(options: NodePoolOptions = {}): Pool {
  const { workerUrl, ...rest } = options ?? {};
  const script = workerScript(workerUrl);
  const spawn: Spawn = (events) => {
    const worker = startWorker(script);
    let over = false;
    const failure = (e: Error) => { if (!over) { over = true; events.failure(e); } };
    worker.on('message', (msg: FromWorker) => events.message(msg));
    worker.on('error', failure);
    worker.on('messageerror', failure);
    worker.on('exit', (code) => failure(new Error(`worker exited with code ${code}`)));
    return {
      post: (msg, transfer) => worker.postMessage(msg, transfer),
      busy: (busy) => (busy ? worker.ref() : worker.unref()),
      terminate: async () => { over = true; await worker.terminate(); },
    };
  };
  return poolWith(spawn, availableParallelism(), rest);
}

/** Takes a worker script (workerScript's); returns a worker thread running it (through tsx for a .ts script). */
export function startWorker(script: { url: URL; tsx?: string }): Worker {
  return script.tsx
    ? new Worker(`import(${JSON.stringify(script.tsx)}).then((api) => { api.register(); return import(${JSON.stringify(script.url.href)}); })`, { eval: true })
    : new Worker(script.url);
}

/** The worker script to run; for a .ts script (running from sources) also the tsx API that loads it. */
export function workerScript(workerUrl?: string | URL): { url: URL; tsx?: string } {
  const candidates = workerUrl !== undefined ? [toUrl(workerUrl)] : [new URL('./worker-node.js', import.meta.url), new URL('./worker-node.ts', import.meta.url)];
  for (const url of candidates) {
    if (url.protocol === 'file:' && !existsSync(fileURLToPath(url))) continue;
    if (!url.pathname.endsWith('.ts')) return { url };
    // Node 20 does not carry the parent's `--import tsx` hooks into worker threads: the worker
    // registers tsx itself before importing the script.
    try {
      return { url, tsx: import.meta.resolve('tsx/esm/api') };
    } catch {
      throw new ResembleError('E_IO', `the worker script ${url.href} is TypeScript and needs the tsx package, which was not found`);
    }
  }
  throw new ResembleError('E_IO', `worker script not found: ${candidates.map((u) => u.href).join(' or ')}`, { workerUrl: String(workerUrl ?? '') });
}

function toUrl(u: string | URL): URL {
  if (u instanceof URL) return u;
  try {
    return new URL(u);
  } catch {
    return new URL(u, `file://${process.cwd().replace(/\\/g, '/')}/`);
  }
}
