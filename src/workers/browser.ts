// Workers on Web Workers (module workers): how the pool spawns one. Which script runs is the
// caller's: the browser entry names worker-browser.js literally, so bundlers emit it.
import type { Spawn } from './pool.js';
import type { FromWorker } from './protocol.js';

/** Takes how to start one Web Worker; returns a spawner of pool workers. */
export function webWorkerSpawn(start: () => Worker): Spawn {
  return (events) => {
    const worker = start();
    let over = false;
    const failure = (e: Error) => { if (!over) { over = true; events.failure(e); } };
    worker.onmessage = (e: MessageEvent<FromWorker>) => events.message(e.data);
    worker.onerror = (e: ErrorEvent) => { e.preventDefault(); failure(new Error(e.message || 'error in worker script')); };
    worker.onmessageerror = () => failure(new Error('a message from the worker could not be read'));
    return {
      post: (msg, transfer) => worker.postMessage(msg, transfer),
      busy: () => undefined,
      terminate: async () => { over = true; worker.terminate(); },
    };
  };
}

/** The hardware threads a page may use (navigator.hardwareConcurrency, else 4). */
export function browserCores(): number {
  return typeof navigator !== 'undefined' && navigator.hardwareConcurrency > 0 ? navigator.hardwareConcurrency : 4;
}
