// The worker_threads script of the pool: messages in, results out (buffers transferred), every
// job kind of src/jobs.ts with every page column (the study's paragraphs too), and JSONL lines
// read back into their pages here.
import { parentPort } from 'node:worker_threads';
import { pagesOfLines, type LineJob } from './io/read-back.js';
import { jobKinds, PAGE_COLUMNS } from './jobs.js';
import type { PageColumn } from './stream/page-jobs.js';
import { PARAGRAPHS } from './study/page-columns.js';
import type { ToWorker } from './workers/protocol.js';
import { serve } from './workers/serve.js';

// pages made from JSONL lines go to one buffer, reused batch after batch
const scratch = { bytes: new Uint8Array(0) };
const kinds = jobKinds([...PAGE_COLUMNS, PARAGRAPHS as PageColumn<never, unknown>], (docs: readonly (Uint8Array | null)[], job: LineJob) => pagesOfLines(docs, job, scratch));

parentPort?.on('message', (msg: ToWorker) => {
  const out = serve(msg, kinds);
  if (out) parentPort?.postMessage(out.reply, out.transfer);
});
