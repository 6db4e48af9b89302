// The Web Worker script (module worker): messages from the pool in, results out (buffers transferred).
import type { ToWorker } from './protocol.js';
import { serve } from './serve.js';

const scope = globalThis as unknown as {
  onmessage: ((e: MessageEvent<ToWorker>) => void) | null;
  postMessage(message: unknown, transfer: Transferable[]): void;
};

scope.onmessage = (e) => {
  const out = serve(e.data);
  if (out) scope.postMessage(out.reply, out.transfer);
};
