// The default loader: the kernels ship inside the JavaScript as base64, so `await init()` works
// in Node, browsers and bundlers with no file to serve. Pages with a strict Content-Security-Policy
// use `web-resemble/browser-external` (loader-external.ts), which fetches resemble.wasm instead.
import { WASM_BASE64 } from './inline.generated.js';
import { base64Bytes, initFrom, type WasmSource } from './source.js';

export { getKernels, getMemory, compiledModule, isInitialized } from './instance.js';
export { initSync, type WasmSource } from './source.js';

/** Compiles and instantiates the kernels once; await it before any other call. */
export function init(source?: WasmSource): Promise<void> {
  return initFrom(() => source ?? base64Bytes(WASM_BASE64));
}
