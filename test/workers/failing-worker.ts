// A worker script for the pool's failure tests: the real worker, except that a batch holding the
// document "CRASH" kills the worker (uncaught error) and one holding "REFUSE" gets an error reply;
// a chunk of pairs to estimate with s = 777 kills it too.
import { parentPort } from 'node:worker_threads';
import type { ToWorker } from '../../src/workers/protocol.js';
import { serve } from '../../src/workers/serve.js';

const decoder = new TextDecoder();

function holds(msg: ToWorker, word: string): boolean {
  if (msg.type === 'init') return false;
  if (msg.type === 'estimate') return word === 'CRASH' && msg.s === 777;
  let from = 0;
  for (const end of msg.ends) {
    if (decoder.decode(msg.bytes.subarray(from, end)) === word) return true;
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
  const out = serve(msg);
  if (out) parentPort?.postMessage(out.reply, out.transfer);
});
