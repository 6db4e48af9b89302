// The worker_threads script: messages from the pool in, results out (buffers transferred).
import { parentPort } from 'node:worker_threads';
import type { ToWorker } from './protocol.js';
import { serve } from './serve.js';
import { pagesOfLines, type LineJob } from '../io/read-back.js';

// pages made from JSONL lines go to one buffer, reused batch after batch
const scratch = { bytes: new Uint8Array(0) };
const linePages = (docs: readonly (Uint8Array | null)[], job: LineJob) => pagesOfLines(docs, job, scratch);

parentPort?.on('message', (msg: ToWorker) => {
  const out = serve(msg, linePages);
  if (out) parentPort?.postMessage(out.reply, out.transfer);
});
