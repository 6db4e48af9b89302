// The default loader: both builds of the kernels ship inside the JavaScript as base64 (SIMD and
// scalar), so `await init()` works in Node, browsers and bundlers with no file to serve. Pages
// with a strict Content-Security-Policy use `web-resemble/browser-external` (loader-external.ts),
// which fetches resemble.wasm or resemble-scalar.wasm instead.
import { WASM_SCALAR_BASE64, WASM_SIMD_BASE64 } from './inline.generated.js';
import { base64Bytes, chooseBuild, initFrom, type InitOptions, type WasmSource } from './source.js';

export { getKernels, getMemory, compiledModule, isInitialized, kernelBuild } from './instance.js';
export { initSync, simdSupported, type InitOptions, type WasmSource } from './source.js';

/** Compiles and instantiates the kernels once (the SIMD build where the engine runs it); await it before any other call. */
export function init(source?: WasmSource, options?: InitOptions): Promise<void> {
  try {
    const build = chooseBuild(options);
    return initFrom(() => source ?? base64Bytes(build === 'simd' ? WASM_SIMD_BASE64 : WASM_SCALAR_BASE64));
  } catch (e) {
    return Promise.reject(e);
  }
}
