// Shingle values (kernel: assembly/shingles.ts, sh_*; twin: src/reference/shingles.ts).
import { checked } from '../wasm/kernels.js';
import type { DocInput } from './input.js';
import type { SketchOptions } from './options.js';
import { withDoc } from './tokens.js';

/** Every permuted shingle value π(shingle) of a document, in order, repeats kept (never empty). */
export function shingleValues(doc: DocInput, options?: SketchOptions): BigUint64Array {
  return withDoc(doc, options, 'shingleValues', (mem, k, ptr, len) => {
    const cap = len * 2 + 2;
    const out = mem.alloc(cap * 8);
    return mem.takeU64(out, checked('sh_values', k.sh_values(ptr, len, out, cap)));
  });
}
