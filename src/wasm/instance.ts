import { ResembleError } from '../errors.js';
import type { Kernels } from './kernels.js';
import { WasmMemory } from './memory.js';

let compiled: WebAssembly.Module | undefined;
let kernels: Kernels | undefined;
let memory: WasmMemory | undefined;

/** What the kernels import: only `abort` (never called with --noAssert, kept for safety). */
export const imports = { env: { abort: abortHandler, seed: () => 0 } };

/** Instantiates synchronously: in workers, where browsers allow it for any module size. */
export function instantiate(module: WebAssembly.Module): void {
  adopt(module, new WebAssembly.Instance(module, imports));
}

/** Makes an instance the current one. */
export function adopt(module: WebAssembly.Module, instance: WebAssembly.Instance): void {
  const k = instance.exports as unknown as Kernels;
  k._initialize();
  compiled = module;
  kernels = k;
  memory = new WasmMemory(k.memory, k.heapBase());
}

function abortHandler(_msg: number, _file: number, line: number, column: number): never {
  throw new ResembleError('E_WASM', `kernel aborted at ${line}:${column}`);
}

/** True once `init()` has completed. */
export function isInitialized(): boolean {
  return kernels !== undefined;
}

/** The instance's exports; throws E_NOT_INITIALIZED before `await init()`. */
export function getKernels(): Kernels {
  if (!kernels) throw new ResembleError('E_NOT_INITIALIZED', 'call `await init()` once before using resemble');
  return kernels;
}

/** The owner of the instance's memory views. */
export function getMemory(): WasmMemory {
  if (!memory) throw new ResembleError('E_NOT_INITIALIZED', 'call `await init()` once before using resemble');
  return memory;
}

/** The compiled module, to post to workers (they instantiate it without compiling again). */
export function compiledModule(): WebAssembly.Module {
  if (!compiled) throw new ResembleError('E_NOT_INITIALIZED', 'call `await init()` once before using resemble');
  return compiled;
}
