import { enumOption, rejectUnknown, ResembleError } from '../errors.js';
import { adopt, imports, instantiate, isInitialized, state } from './instance.js';

/** Where the WebAssembly comes from: compiled module, bytes, a URL to fetch, or a fetch Response. */
export type WasmSource = WebAssembly.Module | BufferSource | URL | string | Response | Promise<Response>;

/** How `init()` picks the kernels. */
export interface InitOptions {
  /**
   * Which build to load when no source is given: 'auto' (default) the SIMD build where the engine
   * validates WebAssembly SIMD (Node ≥ 16.4, every current browser) and the scalar build
   * elsewhere; 'simd' or 'scalar' to force one. Both give bit-identical results; the scalar one
   * is slower. Ignored when a source is given: that module is used as it is.
   */
  build?: 'auto' | 'simd' | 'scalar';
}

/** The smallest module using a SIMD instruction: (func (result v128) i32.const 0 i8x16.splat i8x16.popcnt). */
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);

/** True when this engine runs WebAssembly SIMD. */
export function simdSupported(): boolean {
  return WebAssembly.validate(SIMD_PROBE);
}

/** Validates init options; returns the build to load ('simd' or 'scalar'). */
export function chooseBuild(options: InitOptions = {}): 'simd' | 'scalar' {
  if (options === null || typeof options !== 'object') throw new ResembleError('E_OPTION', `expected an options object for init, got ${String(options)}`);
  rejectUnknown(options, ['build'], 'init');
  const build = enumOption('build', options.build, 'auto', ['auto', 'simd', 'scalar'] as const);
  if (build === 'simd' && !simdSupported()) throw new ResembleError('E_OPTION', 'build \'simd\' asked for, but this engine does not run WebAssembly SIMD: use build \'auto\' or \'scalar\'', { option: 'build' });
  return build === 'auto' ? (simdSupported() ? 'simd' : 'scalar') : build;
}

/** Compiles (once) and instantiates the kernels from a source; later calls return the same promise. */
export function initFrom(source: () => WasmSource | Promise<WasmSource>): Promise<void> {
  if (isInitialized()) return Promise.resolve();
  state.pending ??= (async () => {
    const module = await compile(await source());
    adopt(module, await WebAssembly.instantiate(module, imports));
  })().catch((e) => {
    state.pending = undefined;
    throw e instanceof ResembleError ? e : new ResembleError('E_WASM', `could not load the WebAssembly kernels: ${(e as Error).message}`);
  });
  return state.pending;
}

async function compile(src: WasmSource): Promise<WebAssembly.Module> {
  if (src instanceof WebAssembly.Module) return src;
  // bytes first: in Node, the first look at the global Response loads its fetch (undici), a tenth of a
  // second or more of every run's start-up on one thread, for the inline bytes that need none of it
  if (src instanceof ArrayBuffer || ArrayBuffer.isView(src)) return WebAssembly.compile(src);
  if (typeof src === 'string' || src instanceof URL) src = fetch(src);
  if (src instanceof Promise || (typeof Response !== 'undefined' && src instanceof Response)) {
    const res = await src;
    if (!res.ok) throw new Error(`fetching ${res.url}: HTTP ${res.status}`);
    return WebAssembly.compile(await res.arrayBuffer());
  }
  return WebAssembly.compile(src as BufferSource);
}

/** Decodes base64 without Node built-ins (atob exists in Node ≥ 16 and every browser). */
export function base64Bytes(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Instantiates synchronously from a module already compiled elsewhere (a worker's start-up: `compiledModule()` posted to it). */
export function initSync(module: WebAssembly.Module): void {
  if (!(module instanceof WebAssembly.Module)) {
    throw new ResembleError('E_OPTION', `initSync takes a compiled WebAssembly.Module (compiledModule() of an initialized thread), got ${module === null ? 'null' : typeof module}; without one, use \`await init()\``, { option: 'module' });
  }
  if (!isInitialized()) instantiate(module);
}
