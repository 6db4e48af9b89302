/** First byte above the static data: the TypeScript arena starts here. */
export function heapBase(): usize {
  return __heap_base;
}

/** 1 for the build compiled with WebAssembly SIMD, 0 for the scalar build. */
export function simdBuild(): i32 {
  return ASC_FEATURE_SIMD ? 1 : 0;
}
