import { ResembleError } from '../errors.js';
import { adopt, imports, instantiate, isInitialized } from './instance.js';

/** Where the WebAssembly comes from: compiled module, bytes, a URL to fetch, or a fetch Response. */
export type WasmSource = WebAssembly.Module | BufferSource | URL | string | Response | Promise<Response>;

let pending: Promise<void> | undefined;

/** Compiles (once) and instantiates the kernels from a source; later calls return the same promise. */
export function initFrom(source: () => WasmSource | Promise<WasmSource>): Promise<void> {
  if (isInitialized()) return Promise.resolve();
  pending ??= (async () => {
    const module = await compile(await source());
    adopt(module, await WebAssembly.instantiate(module, imports));
  })().catch((e) => {
    pending = undefined;
    throw e instanceof ResembleError ? e : new ResembleError('E_WASM', `could not load the WebAssembly kernels: ${(e as Error).message}`);
  });
  return pending;
}

async function compile(src: WasmSource): Promise<WebAssembly.Module> {
  if (src instanceof WebAssembly.Module) return src;
  if (typeof src === 'string' || src instanceof URL) src = fetch(src);
  if (src instanceof Promise || (typeof Response !== 'undefined' && src instanceof Response)) {
    const res = await src;
    if (!res.ok) throw new Error(`fetching ${res.url}: HTTP ${res.status}`);
    return WebAssembly.compile(await res.arrayBuffer());
  }
  return WebAssembly.compile(src as BufferSource);
}

/** Decodes base64 without Node built-ins (atob exists in Node ≥ 16 and every browser). */
export function base64Bytes(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Instantiates synchronously from a module already compiled elsewhere (a worker's start-up). */
export function initSync(module: WebAssembly.Module): void {
  if (!isInitialized()) instantiate(module);
}
