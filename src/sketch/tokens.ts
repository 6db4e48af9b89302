// Canonical tokens (kernel: assembly/tokens.ts, tk_*; twin: src/reference/tokens.ts).
import { ResembleError } from '../errors.js';
import { checked, type Kernels } from '../wasm/kernels.js';
import { withArena } from '../wasm/instance.js';
import type { WasmMemory } from '../wasm/memory.js';
import { checkDoc, putDoc, type DocInput } from './input.js';
import { configureKernels, resolveSketchOptions, type SketchOptions } from './options.js';

const decoder = new TextDecoder();

/**
 * Takes one document, sketch options and a name for errors; configures the kernels, copies the
 * document into the arena and runs f on it (everything allocated is freed after).
 */
export function withDoc<T>(doc: DocInput, options: SketchOptions | undefined, what: string,
  f: (mem: WasmMemory, k: Kernels, ptr: number, len: number) => T): T {
  const bad = checkDoc(doc);
  if (bad) throw new ResembleError('E_INPUT', `${what}: ${bad}`);
  const p = resolveSketchOptions(options);
  return withArena((mem, k) => {
    configureKernels(p, k.sk_configure);
    const [ptr, len] = putDoc(mem, doc);
    return f(mem, k, ptr, len);
  });
}

/** The canonical text: markup dropped, references decoded, case folded, tokens joined by single spaces. */
export function canonicalize(doc: DocInput, options?: Pick<SketchOptions, 'markup'>): string {
  return withDoc(doc, options, 'canonicalize', (mem, k, ptr, len) => {
    const cap = len * 2 + 16; // a byte yields at most 2 canonical bytes (a lead byte folds to 2; a space before)
    const out = mem.alloc(cap);
    const n = checked('tk_canonical', k.tk_canonical(ptr, len, out, cap));
    return decoder.decode(mem.u8.subarray(out, out + n));
  });
}

/** One fingerprint per canonical token (per character of the canonical text with unit 'char'), in order. */
export function tokenFingerprints(doc: DocInput, options?: Pick<SketchOptions, 'markup' | 'unit'>): BigUint64Array {
  return withDoc(doc, options, 'tokenFingerprints', (mem, k, ptr, len) => {
    const cap = len * 2 + 1;
    const out = mem.alloc(cap * 8);
    return mem.takeU64(out, checked('tk_tokens', k.tk_tokens(ptr, len, out, cap)));
  });
}
