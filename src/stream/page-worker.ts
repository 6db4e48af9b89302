// The page pool's worker_threads script: the compiled kernels in, then one batch of pages per
// message, answered with the same runPageJob the calling thread would run (columns transferred).
import { parentPort } from 'node:worker_threads';
import { ResembleError } from '../errors.js';
import { initSync } from '../wasm/source.js';
import { resultBuffers, runPageJob } from './page-jobs.js';
import type { ToPageWorker } from './page-pool.js';

let initError: unknown;

parentPort?.on('message', (msg: ToPageWorker) => {
  if (msg.type === 'init') {
    try { initSync(msg.module); } catch (e) { initError = e; }
    return;
  }
  try {
    if (initError) throw initError;
    const docs: Uint8Array[] = new Array(msg.ends.length);
    let from = 0;
    for (let i = 0; i < msg.ends.length; i++) { docs[i] = msg.bytes.subarray(from, msg.ends[i]); from = msg.ends[i]; }
    const result = runPageJob(msg.job, docs, msg.html);
    parentPort!.postMessage({ id: msg.id, result }, resultBuffers(result));
  } catch (e) {
    parentPort!.postMessage({ id: msg.id, error: { code: e instanceof ResembleError ? e.code : undefined, message: e instanceof Error ? e.message : String(e) } });
  }
});
