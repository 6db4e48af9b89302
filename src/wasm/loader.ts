// The default loader: both builds of the kernels ship inside the JavaScript as base64 (SIMD and
// scalar), so `await init()` works in Node, browsers and bundlers with no file to serve. Pages
// with a strict Content-Security-Policy use `web-resemble/browser-external` (loader-external.ts),
// which fetches resemble.wasm or resemble-scalar.wasm instead.
import { WASM_SCALAR_BASE64, WASM_SIMD_BASE64 } from './inline.generated.js';
import { ResembleError } from '../errors.js';
import { adopt, imports } from './instance.js';
import { base64Bytes, chooseBuild, initFrom, simdSupported, type InitOptions, type WasmSource } from './source.js';

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

const modules: Partial<Record<'simd' | 'scalar', WebAssembly.Module>> = {};

/**
 * Replaces the current instance with a fresh one of the given build, synchronously (Node; the
 * benchmark and the tests run both builds in one process). Not for use while a pool has workers.
 */
export function useBuild(build: 'simd' | 'scalar'): void {
  if (build === 'simd' && !simdSupported()) throw new ResembleError('E_OPTION', 'this engine does not run WebAssembly SIMD');
  const module = (modules[build] ??= new WebAssembly.Module(base64Bytes(build === 'simd' ? WASM_SIMD_BASE64 : WASM_SCALAR_BASE64)));
  adopt(module, new WebAssembly.Instance(module, imports));
}
