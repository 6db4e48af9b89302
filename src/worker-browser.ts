// The Web Worker script of the pool (module worker): messages in, results out (buffers
// transferred), every job kind of src/jobs.ts.
import { jobKinds } from './jobs.js';
import type { ToWorker } from './workers/protocol.js';
import { serve } from './workers/serve.js';

const scope = globalThis as unknown as {
  onmessage: ((e: MessageEvent<ToWorker>) => void) | null;
  postMessage(message: unknown, transfer: Transferable[]): void;
};
const kinds = jobKinds();

scope.onmessage = (e) => {
  const out = serve(e.data, kinds);
  if (out) scope.postMessage(out.reply, out.transfer);
};
