// Finding the next byte of interest 8 bytes at a time (SWAR), or 16 with SIMD when compiled
// with ASC_FEATURE_SIMD=1: skipping tag interiors, comments and script bodies is most of the
// work on real HTML. has(v, x) marks the bytes of v equal to x; its lowest mark is exact (higher
// ones may be false), so the first match is the count of trailing zeros / 8.

const ONES: u64 = 0x0101010101010101;
const HIGHS: u64 = 0x8080808080808080;

@inline function zeros(v: u64): u64 { return (v - ONES) & ~v & HIGHS; }

/** Position of the first of the bytes a, b, c at or after p (a repeated to fill), or end. */
export function scan3(p: usize, end: usize, a: u32, b: u32, c: u32): usize {
  if (ASC_FEATURE_SIMD) {
    const va = i8x16.splat(<i8>a), vb = i8x16.splat(<i8>b), vc = i8x16.splat(<i8>c);
    while (p + 16 <= end) {
      const v = v128.load(p);
      const m = v128.or(v128.or(i8x16.eq(v, va), i8x16.eq(v, vb)), i8x16.eq(v, vc));
      const bits = i8x16.bitmask(m);
      if (bits != 0) return p + <usize>ctz(bits);
      p += 16;
    }
  } else {
    const ka = ONES * <u64>a, kb = ONES * <u64>b, kc = ONES * <u64>c;
    while (p + 8 <= end) {
      const v = load<u64>(p);
      const m = zeros(v ^ ka) | zeros(v ^ kb) | zeros(v ^ kc);
      if (m != 0) return p + <usize>(ctz(m) >> 3);
      p += 8;
    }
  }
  while (p < end) {
    const x = <u32>load<u8>(p);
    if (x == a || x == b || x == c) return p;
    p++;
  }
  return end;
}
