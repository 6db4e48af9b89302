// The WebAssembly entry: every kernel module re-exported. Kernels take pointers and lengths
// into memory that the TypeScript side owns (src/wasm/memory.ts) and return counts; a negative
// count is an error code (see src/wasm/errors.ts).
export { heapBase } from './base';
