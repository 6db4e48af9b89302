import { checked } from '../wasm/kernels.js';
import { getKernels, getMemory } from '../wasm/loader.js';
import type { SketchColumns } from './sketch-set.js';

/**
 * Super-shingles (Broder §3.3): every run of `size` consecutive values of each sorted sketch,
 * fingerprinted; two documents sharing one are very likely near-duplicates. At most
 * max(1, len − size + 1) per document.
 */
export function superShingles(set: Pick<SketchColumns, 'values' | 'offsets'>, size: number): { values: BigUint64Array; offsets: Uint32Array } {
  const k = getKernels();
  const mem = getMemory();
  const n = set.offsets.length - 1;
  const mark = mem.mark();
  try {
    const valPtr = mem.putU64(set.values);
    const offPtr = mem.putU32(set.offsets);
    const cap = set.values.length + n;
    const outPtr = mem.alloc(cap * 8);
    const outOffPtr = mem.alloc((n + 1) * 4);
    const total = checked('ss_super', k.ss_super(valPtr, offPtr, n, size, outPtr, outOffPtr, cap));
    return {
      values: mem.u64.slice(outPtr >>> 3, (outPtr >>> 3) + total),
      offsets: mem.u32.slice(outOffPtr >>> 2, (outOffPtr >>> 2) + n + 1),
    };
  } finally {
    mem.release(mark);
  }
}
