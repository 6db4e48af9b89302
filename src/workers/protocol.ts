// The messages between the pool and its workers, whatever the job: the compiled module once, then
// jobs named by their kind, each answered with its result or an error. A job's payload and result
// are the kind's own (plain data and typed arrays); their buffers are transferred, not copied,
// where the kind lists them. The kinds themselves are registered on the worker side (serve.ts).

/** The compiled module, sent once to each worker (it instantiates without compiling again). */
export interface InitMessage {
  type: 'init';
  module: WebAssembly.Module;
}

/** One batch of a call: its kind (a key of the workers' registry), its id, and the kind's payload. */
export interface JobMessage {
  type: 'job';
  kind: string;
  id: number;
  job: unknown;
}

export type ToWorker = InitMessage | JobMessage;

/**
 * A batch's answer: the kind's result, or an error with its code. `spare` hands the job's input
 * buffer back (transferred) for the pool to pack a later batch into.
 */
export type FromWorker =
  | { type: 'done'; id: number; result: unknown; spare?: ArrayBuffer }
  | { type: 'error'; id: number; code?: string; message: string };

/** The distinct buffers behind typed arrays, for a postMessage transfer list (never `keep`: WebAssembly memory cannot be transferred). */
export function buffersOf(arrays: (ArrayBufferView | undefined)[], keep?: ArrayBufferLike): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const a of arrays) if (a && a.buffer instanceof ArrayBuffer && a.buffer !== keep) out.add(a.buffer);
  return [...out];
}
