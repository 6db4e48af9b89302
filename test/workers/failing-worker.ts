// A worker script for the pool's failure tests: the real worker, except that a batch holding the
// document "CRASH" kills the worker (uncaught error) and one holding "REFUSE" gets an error reply;
// a chunk of pairs to estimate with s = 777 kills it too.
import { parentPort } from 'node:worker_threads';
import { jobKinds } from '../../src/jobs.js';
import type { DocumentBatch, EstimateJob } from '../../src/stream/pool.js';
import type { ToWorker } from '../../src/workers/protocol.js';
import { serve } from '../../src/workers/serve.js';

const kinds = jobKinds();

const decoder = new TextDecoder();

function holds(msg: ToWorker, word: string): boolean {
  if (msg.type === 'init') return false;
  if (msg.kind === 'estimate') return word === 'CRASH' && (msg.job as EstimateJob).s === 777;
  const batch = msg.job as DocumentBatch;
  let from = 0;
  for (const end of batch.ends) {
    if (decoder.decode(batch.bytes.subarray(from, end)) === word) return true;
    from = end;
  }
  return false;
}

parentPort?.on('message', (msg: ToWorker) => {
  if (holds(msg, 'CRASH')) throw new Error('planted crash');
  if (holds(msg, 'REFUSE') && msg.type !== 'init') {
    parentPort?.postMessage({ type: 'error', id: msg.id, code: 'E_INPUT', message: 'planted refusal' });
    return;
  }
  const out = serve(msg, kinds);
  if (out) parentPort?.postMessage(out.reply, out.transfer);
});
