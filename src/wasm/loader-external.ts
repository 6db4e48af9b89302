// The strict-CSP loader: fetches resemble.wasm next to the bundle (or a URL/bytes/module you
// pass) instead of inlining it, so pages that forbid data: URLs and large inline scripts work.
import { initFrom, type WasmSource } from './source.js';

export { getKernels, getMemory, compiledModule, isInitialized } from './instance.js';
export { initSync, type WasmSource } from './source.js';

/** Compiles and instantiates the kernels once from `source` (default: ./resemble.wasm beside this module). */
export function init(source?: WasmSource): Promise<void> {
  return initFrom(() => source ?? new URL('./resemble.wasm', import.meta.url));
}
