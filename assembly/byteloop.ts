// The ceiling for benchmarks: a plain loop that reads every byte once.

/** Sum of len bytes at ptr (8 at a time, then the tail). */
export function bl_sum(ptr: usize, len: usize): u64 {
  let acc: u64 = 0;
  const end8 = ptr + (len & ~<usize>7);
  let p = ptr;
  while (p < end8) {
    const v = load<u64>(p);
    acc += (v & 0x00ff00ff00ff00ff) + ((v >> 8) & 0x00ff00ff00ff00ff);
    p += 8;
  }
  let tail: u64 = 0;
  while (p < ptr + len) { tail += load<u8>(p); p++; }
  // fold the four 16-bit lanes
  acc = (acc & 0xffff) + ((acc >> 16) & 0xffff) + ((acc >> 32) & 0xffff) + (acc >> 48);
  return acc + tail;
}
