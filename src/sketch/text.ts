import { ResembleError } from '../errors.js';
import { checked } from '../wasm/kernels.js';
import { getKernels, getMemory } from '../wasm/loader.js';
import { checkDoc, putDoc, type DocInput } from './input.js';
import { configureKernels, resolveSketchOptions, type SketchOptions } from './options.js';

const decoder = new TextDecoder();

function withDoc<T>(doc: DocInput, options: SketchOptions | undefined, what: string, f: (ptr: number, len: number) => T): T {
  const bad = checkDoc(doc);
  if (bad) throw new ResembleError('E_INPUT', `${what}: ${bad}`);
  const p = resolveSketchOptions(options);
  const k = getKernels();
  configureKernels(p, k.sk_configure);
  const mem = getMemory();
  const mark = mem.mark();
  try {
    const [ptr, len] = putDoc(mem, doc);
    return f(ptr, len);
  } finally {
    mem.release(mark);
  }
}

/** The canonical text: markup dropped, references decoded, case folded, tokens joined by single spaces. */
export function canonicalize(doc: DocInput, options?: Pick<SketchOptions, 'markup'>): string {
  return withDoc(doc, options, 'canonicalize', (ptr, len) => {
    const mem = getMemory();
    const cap = len * 2 + 16; // a byte yields at most 2 canonical bytes (a lead byte folds to 2; a space before)
    const out = mem.alloc(cap);
    const n = checked('tk_canonical', getKernels().tk_canonical(ptr, len, out, cap));
    return decoder.decode(mem.u8.subarray(out, out + n));
  });
}

/** One fingerprint per canonical token (per character of the canonical text with unit 'char'), in order. */
export function tokenFingerprints(doc: DocInput, options?: Pick<SketchOptions, 'markup' | 'unit'>): BigUint64Array {
  return withDoc(doc, options, 'tokenFingerprints', (ptr, len) => {
    const mem = getMemory();
    const cap = len * 2 + 1;
    const out = mem.alloc(cap * 8);
    const n = checked('tk_tokens', getKernels().tk_tokens(ptr, len, out, cap));
    return mem.u64.slice(out >>> 3, (out >>> 3) + n);
  });
}

/** Every permuted shingle value π(shingle) of a document, in order, repeats kept (never empty). */
export function shingleValues(doc: DocInput, options?: SketchOptions): BigUint64Array {
  return withDoc(doc, options, 'shingleValues', (ptr, len) => {
    const mem = getMemory();
    const cap = len * 2 + 2;
    const out = mem.alloc(cap * 8);
    const n = checked('sh_values', getKernels().sh_values(ptr, len, out, cap));
    return mem.u64.slice(out >>> 3, (out >>> 3) + n);
  });
}
