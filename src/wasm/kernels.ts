import { ResembleError } from '../errors.js';

/** The WebAssembly exports, typed. Pointers and lengths are byte offsets into `memory`. */
export interface Kernels {
  memory: WebAssembly.Memory;
  _initialize(): void;
  heapBase(): number;
  rb_update(h: bigint, ptr: number, len: number): bigint;
  rb_fingerprint_batch(bytes: number, offsets: number, n: number, out: number): number;
  rb_rolling(ptr: number, len: number, n: number, out: number, outCap: number): number;
  rb_chunks(ptr: number, len: number, carry: number, n: number, mask: bigint, target: bigint,
    minSize: number, maxSize: number, startLen: number, final: number, out: number, outCap: number): number;
  mx_mix(ptr: number, n: number, seed: bigint): number;
  tk_entity_table(out: number, cap: number): number;
  sk_configure(w: number, unit: number, markup: number, kind: number, s: number, m: bigint, k: number, seed: bigint): number;
  sk_sketch_batch(bytes: number, offsets: number, n: number, values: number, valuesCap: number,
    outOffsets: number, info: number, signatures: number, scratch: number, scratchCap: number): number;
  tk_canonical(ptr: number, len: number, out: number, outCap: number): number;
  tk_tokens(ptr: number, len: number, out: number, outCap: number): number;
  sh_values(ptr: number, len: number, out: number, outCap: number): number;
  ss_super(values: number, offsets: number, n: number, size: number, out: number, outOffsets: number, outCap: number): number;
  bl_sum(ptr: number, len: number): bigint;
  [name: string]: unknown;
}

const MESSAGES: Record<number, string> = {
  [-1]: 'output capacity too small',
  [-2]: 'scratch buffer too small',
  [-3]: 'parameters rejected by the kernel',
};

/** Throws a coded error for a negative kernel result; returns the count otherwise. */
export function checked(kernel: string, result: number): number {
  if (result >= 0) return result;
  throw new ResembleError('E_WASM', `${kernel}: ${MESSAGES[result] ?? `error ${result}`} (a bug: sizes are checked before the call)`, { kernel, result });
}
