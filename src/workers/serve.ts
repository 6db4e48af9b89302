// The worker side, shared by the Node and browser worker scripts: instantiate the module the pool
// sent, then answer each job with the runner its kind is registered under. The registry is the
// worker script's (src/jobs.ts lists every kind), so this loop knows no capability.
import { ResembleError } from '../errors.js';
import { initSync } from '../wasm/source.js';
import type { FromWorker, ToWorker } from './protocol.js';

/** What a job's runner returns: its result, the buffers to transfer with it, and the job's input buffer handed back. */
export interface JobOutput {
  result: unknown;
  transfer: ArrayBuffer[];
  spare?: ArrayBuffer;
}

/** Runs one job of a kind on the worker (synchronously: the kernels are synchronous once instantiated). */
export type JobRunner = (job: never) => JobOutput;

/** The kinds a worker runs, by name. */
export type JobKinds = Readonly<Record<string, JobRunner>>;

let initError: unknown;

/** Handles one message from the pool with the kinds given; returns the reply and the buffers to transfer with it (none for init). */
export function serve(msg: ToWorker, kinds: JobKinds): { reply: FromWorker; transfer: ArrayBuffer[] } | undefined {
  if (msg.type === 'init') {
    try { initSync(msg.module); } catch (e) { initError = e; }
    return undefined;
  }
  try {
    if (initError) throw initError;
    const run = Object.hasOwn(kinds, msg.kind) ? kinds[msg.kind] : undefined;
    if (!run) throw new ResembleError('E_INPUT', `this worker runs no job of kind ${JSON.stringify(msg.kind)}`);
    const out = (run as (job: unknown) => JobOutput)(msg.job);
    const transfer = out.spare ? [...out.transfer, out.spare] : out.transfer;
    return { reply: { type: 'done', id: msg.id, result: out.result, spare: out.spare }, transfer };
  } catch (e) {
    const code = e instanceof ResembleError ? e.code : undefined;
    return { reply: { type: 'error', id: msg.id, code, message: e instanceof Error ? e.message : String(e) }, transfer: [] };
  }
}
