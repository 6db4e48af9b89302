// Workers on worker_threads: how the pool spawns one, and how any worker thread of ours is started
// from a script that may be TypeScript (running from the sources: tests, `npm run bench`), loaded
// through tsx. Which script runs is the caller's (the pool's worker script is src/worker-node.ts).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ResembleError } from '../errors.js';
import type { Spawn } from './pool.js';
import type { FromWorker } from './protocol.js';

/** Takes a worker script (workerScript's); returns a spawner of pool workers running it on worker_threads. */
export function threadSpawn(script: { url: URL; tsx?: string }): Spawn {
  return (events) => {
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
}

/** Takes a worker script (workerScript's); returns a worker thread running it (through tsx for a .ts script). */
export function startWorker(script: { url: URL; tsx?: string }): Worker {
  return script.tsx
    ? new Worker(`import(${JSON.stringify(script.tsx)}).then((api) => { api.register(); return import(${JSON.stringify(script.url.href)}); })`, { eval: true })
    : new Worker(script.url);
}

/**
 * Takes the worker script a caller names (a path or URL), or else the candidates where it may be
 * (the built .js, then the .ts source); returns the first that exists, and for a .ts script also
 * the tsx API that loads it.
 */
export function workerScript(workerUrl: string | URL | undefined, candidates: readonly URL[] = []): { url: URL; tsx?: string } {
  const urls = workerUrl !== undefined ? [toUrl(workerUrl)] : candidates;
  for (const url of urls) {
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
  throw new ResembleError('E_IO', `worker script not found: ${urls.map((u) => u.href).join(' or ')}`, { workerUrl: String(workerUrl ?? '') });
}

function toUrl(u: string | URL): URL {
  if (u instanceof URL) return u;
  try {
    return new URL(u);
  } catch {
    return new URL(u, `file://${process.cwd().replace(/\\/g, '/')}/`);
  }
}
