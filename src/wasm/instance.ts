// The kernels' instance, one per process (or worker): compiled once, instantiated once, shared by
// every copy of this code in the process — the ESM and CommonJS builds, several bundles — through
// one slot on globalThis keyed by the kernels' id, so `await init()` through one copy serves the
// other (ESM init, CommonJS use). Copies built from different kernels get different slots.
import { ResembleError } from '../errors.js';
import { KERNELS_ID } from './inline.generated.js';
import { asKernels, type Kernels } from './kernels.js';
import { WasmMemory } from './memory.js';

/** What one process holds for the kernels. */
interface KernelState {
  module?: WebAssembly.Module;
  kernels?: Kernels;
  memory?: WasmMemory;
  /** The `init()` in progress, so concurrent calls compile once. */
  pending?: Promise<void>;
}

const SLOT = Symbol.for(`web-resemble.kernels.${KERNELS_ID}`);
const holder = globalThis as typeof globalThis & { [SLOT]?: KernelState };
/** The process-wide state (created by the first copy of this module to load). */
export const state: KernelState = (holder[SLOT] ??= {});

/** What the kernels import: only `abort` (never called with --noAssert, kept for safety). */
export const imports = { env: { abort: abortHandler, seed: () => 0 } };

/** Instantiates synchronously: in workers, where browsers allow it for any module size. */
export function instantiate(module: WebAssembly.Module): void {
  adopt(module, new WebAssembly.Instance(module, imports));
}

/** Makes an instance the current one (its exports are checked to be the kernels first). */
export function adopt(module: WebAssembly.Module, instance: WebAssembly.Instance): void {
  const k = asKernels(instance.exports);
  k._initialize();
  state.module = module;
  state.kernels = k;
  state.memory = new WasmMemory(k.memory, k.heapBase());
}

function abortHandler(_msg: number, _file: number, line: number, column: number): never {
  throw new ResembleError('E_WASM', `kernel aborted at ${line}:${column}`);
}

function notInitialized(): ResembleError {
  return new ResembleError('E_NOT_INITIALIZED', 'call `await init()` once before using resemble');
}

/** True once `init()` has completed. */
export function isInitialized(): boolean {
  return state.kernels !== undefined;
}

/** The instance's exports; throws E_NOT_INITIALIZED before `await init()`. */
export function getKernels(): Kernels {
  if (!state.kernels) throw notInitialized();
  return state.kernels;
}

/** The owner of the instance's memory views. */
export function getMemory(): WasmMemory {
  if (!state.memory) throw notInitialized();
  return state.memory;
}

/** The compiled module, to post to workers (they instantiate it without compiling again). */
export function compiledModule(): WebAssembly.Module {
  if (!state.module) throw notInitialized();
  return state.module;
}

/** Which build of the kernels is running: 'simd' (WebAssembly SIMD) or 'scalar'. */
export function kernelBuild(): 'simd' | 'scalar' {
  return getKernels().simdBuild() === 1 ? 'simd' : 'scalar';
}

/**
 * Runs f with the kernels and their memory; everything f allocates in the arena is freed when it
 * returns or throws. Every wrapper's mark / alloc / put / call / take / release goes through here.
 */
export function withArena<T>(f: (mem: WasmMemory, k: Kernels) => T): T {
  const mem = getMemory();
  const k = getKernels();
  return mem.scoped(() => f(mem, k));
}
