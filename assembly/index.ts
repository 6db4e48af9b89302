// The WebAssembly entry: every kernel module re-exported. Kernels take pointers and lengths
// into memory that the TypeScript side owns (src/wasm/memory.ts) and return counts; a negative
// count is an error code (see src/wasm/kernels.ts).
export { heapBase } from './base';
export { rb_update, rb_fingerprint_batch, rb_rolling, rb_chunks } from './rabin';
export { mx_mix } from './mix';
export { tk_entity_table } from './entities';
export { sk_configure, sk_sketch_batch, tk_canonical, tk_tokens, sh_values } from './sketch';
export { ss_super } from './supershingles';
export { bl_sum } from './byteloop';
export * from './projection';
export * from './hyperlinkmap';
export * from './sort';
export { tp_configure, tp_blocks, tp_sketch_batch } from './template';
