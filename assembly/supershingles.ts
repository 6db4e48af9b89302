// Super-shingles (Broder §3.3): sort the sketch, then shingle the shingles. Each run of `size`
// consecutive values of a sorted sketch becomes Rabin(BE64(v_j) ‖ … ‖ BE64(v_{j+size−1}));
// a sketch shorter than `size` gives one super-shingle of all its values.
import { pushWord } from './rabin';

/**
 * Super-shingles of n sketches (CSR: values + offsets[n + 1], each row sorted). Writes at most
 * max(1, len − size + 1) per sketch into out with outOffsets[n + 1]; returns the total, −1 when
 * outCap is short, −3 for size 0.
 */
export function ss_super(values: usize, offsets: usize, n: i32, size: u32, out: usize, outOffsets: usize, outCap: u32): i32 {
  if (size == 0) return -3;
  let w: u32 = 0;
  store<u32>(outOffsets, 0);
  for (let i = 0; i < n; i++) {
    const a = load<u32>(offsets + (<usize>i << 2)), b = load<u32>(offsets + (<usize>(i + 1) << 2));
    const len = b - a;
    const runs = len > size ? len - size + 1 : 1;
    const width = len < size ? len : size;
    if (w + runs > outCap) return -1;
    for (let r: u32 = 0; r < runs; r++) {
      let h: u64 = 1;
      for (let j: u32 = 0; j < width; j++) h = pushWord(h, load<u64>(values + (<usize>(a + r + j) << 3)));
      store<u64>(out + (<usize>w << 3), h);
      w++;
    }
    store<u32>(outOffsets + (<usize>(i + 1) << 2), w);
  }
  return <i32>w;
}
