// The worker_threads script: messages from the pool in, results out (buffers transferred).
import { parentPort } from 'node:worker_threads';
import type { ToWorker } from './protocol.js';
import { serve } from './serve.js';

parentPort?.on('message', (msg: ToWorker) => {
  const out = serve(msg);
  if (out) parentPort?.postMessage(out.reply, out.transfer);
});
