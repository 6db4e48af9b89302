// Super-shingles (kernel: assembly/supershingles.ts, ss_*; twin: src/reference/supershingles.ts).
import { checked } from '../wasm/kernels.js';
import { withArena } from '../wasm/instance.js';

/**
 * Super-shingles (Broder §3.3): every run of `size` consecutive values of each sorted sketch,
 * fingerprinted; two documents sharing one are very likely near-duplicates. At most
 * max(1, len − size + 1) per document.
 */
export function superShingles(set: { values: BigUint64Array; offsets: Uint32Array }, size: number): { values: BigUint64Array; offsets: Uint32Array } {
  const n = set.offsets.length - 1;
  return withArena((mem, k) => {
    const valPtr = mem.putU64(set.values);
    const offPtr = mem.putU32(set.offsets);
    const cap = set.values.length + n;
    const outPtr = mem.alloc(cap * 8);
    const outOffPtr = mem.alloc((n + 1) * 4);
    const total = checked('ss_super', k.ss_super(valPtr, offPtr, n, size, outPtr, outOffPtr, cap));
    return { values: mem.takeU64(outPtr, total), offsets: mem.takeU32(outOffPtr, n + 1) };
  });
}
