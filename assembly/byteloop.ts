// The ceiling for benchmarks: a plain loop that reads every byte once.

/** Exact sum of len bytes at ptr: 8 bytes a step in four 16-bit lanes, folded every 64 steps before they can overflow. */
export function bl_sum(ptr: usize, len: usize): u64 {
  let total: u64 = 0;
  let p = ptr;
  const end8 = ptr + (len & ~<usize>7);
  while (p < end8) {
    let acc: u64 = 0;
    const stop = min(end8, p + 512);   // 64 steps: each lane grows by ≤ 510 a step, < 65536 in all
    while (p < stop) {
      const v = load<u64>(p);
      acc += (v & 0x00ff00ff00ff00ff) + ((v >> 8) & 0x00ff00ff00ff00ff);
      p += 8;
    }
    total += (acc & 0xffff) + ((acc >> 16) & 0xffff) + ((acc >> 32) & 0xffff) + (acc >> 48);
  }
  while (p < ptr + len) { total += load<u8>(p); p++; }
  return total;
}

/**
 * Sum of len bytes at ptr mod 2^32, one byte a step: one load and one add per byte. The ceiling the
 * sketch is held against (the plain scalar loop any byte-at-a-time kernel is bounded by).
 */
export function bl_bytes(ptr: usize, len: usize): u32 {
  let total: u32 = 0;
  const end = ptr + len;
  for (let p = ptr; p < end; p++) total += <u32>load<u8>(p);
  return total;
}
