import { ResembleError } from '../errors.js';

/**
 * The WebAssembly exports, every one typed. Pointers and lengths are byte offsets into `memory`;
 * 64-bit values are BigInts. The prefix names the kernel's file in assembly/ (rb_ rabin.ts,
 * tk_ tokens.ts, sh_ shingles.ts, sk_ sketch.ts, ss_ supershingles.ts, rp_ projection.ts,
 * hm_ hyperlinkmap.ts, sort_ sort.ts, bl_ byteloop.ts, tp_ template.ts, js_ json.ts, es_ estimate.ts); each has a slow twin in
 * src/reference/.
 */
export interface Kernels {
  memory: WebAssembly.Memory;
  _initialize(): void;
  heapBase(): number;
  simdBuild(): number;
  rb_update(h: bigint, ptr: number, len: number): bigint;
  rb_fingerprint_batch(bytes: number, offsets: number, n: number, out: number): number;
  rb_rolling(ptr: number, len: number, n: number, out: number, outCap: number): number;
  rb_chunks(ptr: number, len: number, carry: number, n: number, mask: bigint, target: bigint,
    minSize: number, maxSize: number, startLen: number, final: number, flavor: number, out: number, outCap: number): number;
  mx_mix(ptr: number, n: number, seed: bigint): number;
  tk_canonical(ptr: number, len: number, out: number, outCap: number): number;
  tk_tokens(ptr: number, len: number, out: number, outCap: number): number;
  tk_entity_table(out: number, cap: number): number;
  sh_values(ptr: number, len: number, out: number, outCap: number): number;
  sk_configure(w: number, unit: number, markup: number, kind: number, s: number, m: bigint, k: number, seed: bigint): number;
  sk_sketch_batch(bytes: number, offsets: number, n: number, values: number, valuesCap: number,
    outOffsets: number, info: number, signatures: number, scratch: number, scratchCap: number): number;
  sk_stage(bytes: number, offsets: number, n: number, stage: number): number;
  ss_super(values: number, offsets: number, n: number, size: number, out: number, outOffsets: number, outCap: number): number;
  rp_entry(word: bigint, j: number, seed: number): number;
  rp_project(terms: number, weights: number, offsets: number, nDocs: number, k: number, seed: number, out: number, outCap: number): number;
  hm_propagate(r: number, n: number, k: number, offsets: number, targets: number, nEdges: number,
    gamma: number, iterations: number, out: number, scratch: number, outCap: number): number;
  sort_keyed(hi: number, lo: number, pay: number, n: number, tHi: number, tLo: number, tPay: number): number;
  bl_sum(ptr: number, len: number): bigint;
  bl_bytes(ptr: number, len: number): number;
  tp_configure(linkPermille: number, minContent: number): number;
  tp_blocks(bytes: number, offsets: number, n: number, out: number, cap: number, outOffsets: number, tokens: number, tokensCap: number, counts: number): number;
  tp_sketch_batch(bytes: number, offsets: number, n: number, tables: number, tableOffsets: number, docTable: number,
    values: number, valuesCap: number, outOffsets: number, info: number, signatures: number, scratch: number, scratchCap: number,
    tokens: number, tokensCap: number, blocks: number, blocksCap: number, counts: number): number;
  tp_content_tokens(bytes: number, offsets: number, n: number, tables: number, tableOffsets: number, docTable: number,
    out: number, cap: number, outOffsets: number, tokens: number, tokensCap: number, blocks: number, blocksCap: number): number;
  js_string(src: number, len: number, out: number, endAt: number): number;
  js_controls(ptr: number, len: number): number;
  es_min_pairs(values: number, offsets: number, pa: number, pb: number, n: number, s: number, out: number): number;
}

/** Every function export, checked to be present when a module is adopted. */
export const KERNEL_FUNCTIONS = [
  '_initialize', 'heapBase', 'simdBuild', 'rb_update', 'rb_fingerprint_batch', 'rb_rolling', 'rb_chunks', 'mx_mix',
  'tk_canonical', 'tk_tokens', 'tk_entity_table', 'sh_values', 'sk_configure', 'sk_sketch_batch', 'sk_stage',
  'ss_super', 'rp_entry', 'rp_project', 'hm_propagate', 'sort_keyed', 'bl_sum', 'bl_bytes', 'tp_configure', 'tp_blocks', 'tp_sketch_batch',
  'tp_content_tokens', 'js_string', 'js_controls', 'es_min_pairs',
] as const satisfies readonly Exclude<keyof Kernels, 'memory'>[];

/** Takes an instance's exports; returns them typed, or throws E_WASM naming the first missing export. */
export function asKernels(exports: WebAssembly.Exports): Kernels {
  for (const name of KERNEL_FUNCTIONS) {
    if (typeof exports[name] !== 'function') throw new ResembleError('E_WASM', `not resemble's kernels: the module has no function ${name} (a module from another version?)`, { export: name });
  }
  if (!(exports.memory instanceof WebAssembly.Memory)) throw new ResembleError('E_WASM', 'not resemble\'s kernels: the module exports no memory');
  return exports as unknown as Kernels;
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

// Compile-time check that KERNEL_FUNCTIONS lists every function of the interface.
type Unlisted = Exclude<Exclude<keyof Kernels, 'memory'>, (typeof KERNEL_FUNCTIONS)[number]>;
const everyExportListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyExportListed;
