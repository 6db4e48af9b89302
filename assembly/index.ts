// The WebAssembly entry: every kernel module re-exported. Kernels take pointers and lengths
// into memory that the TypeScript side owns (src/wasm/memory.ts) and return counts; a negative
// count is an error code (see src/wasm/kernels.ts). Each export's prefix names its file:
// rb_ rabin.ts, mx_ mix.ts, tk_ tokens.ts, sh_ shingles.ts, sk_ sketch.ts, ss_ supershingles.ts,
// rp_ projection.ts, hm_ hyperlinkmap.ts, sort_ sort.ts, bl_ byteloop.ts, tp_ template.ts,
// js_ json.ts, es_ estimate.ts.
export { heapBase, simdBuild } from './base';
export { rb_update, rb_fingerprint_batch, rb_rolling, rb_chunks } from './rabin';
export { mx_mix } from './mix';
export { tk_canonical, tk_tokens, tk_entity_table } from './tokens';
export { sh_values } from './shingles';
export { sk_configure, sk_sketch_batch, sk_stage } from './sketch';
export { ss_super } from './supershingles';
export { rp_entry, rp_project } from './projection';
export { hm_propagate } from './hyperlinkmap';
export { sort_keyed } from './sort';
export { bl_sum, bl_bytes } from './byteloop';
export { tp_configure, tp_blocks, tp_sketch_batch, tp_content_tokens } from './template';
export { js_string, js_controls } from './json';
export { es_min_pairs } from './estimate';
