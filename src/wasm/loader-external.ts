// The strict-CSP loader: fetches resemble.wasm (SIMD) or resemble-scalar.wasm next to the bundle
// (or a URL/bytes/module you pass) instead of inlining them, so pages that forbid data: URLs and
// large inline scripts work.
import { chooseBuild, initFrom, type InitOptions, type WasmSource } from './source.js';

export { getKernels, getMemory, compiledModule, isInitialized, kernelBuild } from './instance.js';
export { initSync, simdSupported, type InitOptions, type WasmSource } from './source.js';

/** Compiles and instantiates the kernels once from `source` (default: resemble.wasm, or resemble-scalar.wasm without SIMD, beside this module). */
export function init(source?: WasmSource, options?: InitOptions): Promise<void> {
  try {
    const build = chooseBuild(options);
    return initFrom(() => source ?? new URL(build === 'simd' ? './resemble.wasm' : './resemble-scalar.wasm', import.meta.url));
  } catch (e) {
    return Promise.reject(e);
  }
}
