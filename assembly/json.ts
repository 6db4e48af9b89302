// JSON string literals to UTF-8 (the JSONL reader's page field), and the binary sniff of a page's
// first bytes. A JSON string is copied 16 bytes at a time (SIMD) or 8 (SWAR) up to the next byte
// that needs a look: a quote (the end), a backslash (an escape) or a control character (invalid).
// Twins: src/reference/json.ts.

const ONES: u64 = 0x0101010101010101;
const HIGHS: u64 = 0x8080808080808080;

/** Marks (high bit) the bytes of v below 0x20, exact for the lowest mark (as scan.ts's `zeros`). */
@inline function below20(v: u64): u64 { return (v - ONES * 0x20) & ~v & HIGHS; }
@inline function zeros(v: u64): u64 { return (v - ONES) & ~v & HIGHS; }

/** Value of the hex digit c, or -1. */
@inline function hexDigit(c: u32): i32 {
  if (c - 0x30 < 10) return <i32>(c - 0x30);
  const l = c | 0x20;
  if (l - 0x61 < 6) return <i32>(l - 0x57);
  return -1;
}

/** The four hex digits at p as a number, or -1 (reads at most 4 bytes before end). */
function hex4(p: usize, end: usize): i32 {
  if (p + 4 > end) return -1;
  let v = 0;
  for (let k: usize = 0; k < 4; k++) {
    const d = hexDigit(<u32>load<u8>(p + k));
    if (d < 0) return -1;
    v = (v << 4) | d;
  }
  return v;
}

/**
 * Reads the JSON string whose body starts at src (after its opening quote) and may run to src +
 * len. With out != 0, writes its value as UTF-8 there (lone surrogates as U+FFFD, as TextEncoder
 * writes them); the caller gives out at least len + 16 bytes (a string never grows, and runs are
 * copied 16 bytes at a time). Stores the offset of the closing quote (from src) at `endAt`.
 * Returns the bytes of the value, or -1 when the body is not a valid JSON string (a control
 * character, a bad escape, no closing quote). Bytes ≥ 0x80 are copied as they are: the caller
 * checks UTF-8.
 */
export function js_string(src: usize, len: usize, out: usize, endAt: usize): i32 {
  const end = src + len;
  let p = src, o = out;
  const write = out != 0;
  while (true) {
    // a run of plain bytes: 16 (or 8) at a time, each block stored whole before it is looked at
    // (out has room past the value), the pointers then moved to the first byte that needs a look
    if (ASC_FEATURE_SIMD) {
      const q = i8x16.splat(0x22), b = i8x16.splat(0x5c), c = i8x16.splat(0x20);
      while (p + 16 <= end) {
        const v = v128.load(p);
        if (write) v128.store(o, v);
        const bits = i8x16.bitmask(v128.or(v128.or(i8x16.eq(v, q), i8x16.eq(v, b)), i8x16.lt_u(v, c)));
        if (bits != 0) { const k = <usize>ctz(bits); p += k; o += k; break; }
        p += 16; o += 16;
      }
    } else {
      const kq = ONES * 0x22, kb = ONES * 0x5c;
      while (p + 8 <= end) {
        const v = load<u64>(p);
        if (write) store<u64>(o, v);
        const m = zeros(v ^ kq) | zeros(v ^ kb) | below20(v);
        if (m != 0) { const k = <usize>(ctz(m) >> 3); p += k; o += k; break; }
        p += 8; o += 8;
      }
    }
    // fewer than a block left (or stopped on a special byte): byte by byte to the next special one
    while (p < end) {
      const x = <u32>load<u8>(p);
      if (x == 0x22 || x == 0x5c || x < 0x20) break;
      if (write) store<u8>(o, <u8>x);
      p++; o++;
    }
    if (p >= end) return -1;
    const c = <u32>load<u8>(p);
    if (c == 0x22) {
      store<u32>(endAt, <u32>(p - src));
      return <i32>(o - out);
    }
    if (c < 0x20) return -1;
    // an escape
    if (p + 1 >= end) return -1;
    const e = <u32>load<u8>(p + 1);
    let cp: i32 = -1;
    if (e == 0x22 || e == 0x5c || e == 0x2f) cp = <i32>e;
    else if (e == 0x62) cp = 0x08;
    else if (e == 0x66) cp = 0x0c;
    else if (e == 0x6e) cp = 0x0a;
    else if (e == 0x72) cp = 0x0d;
    else if (e == 0x74) cp = 0x09;
    else if (e == 0x75) {
      cp = hex4(p + 2, end);
      if (cp < 0) return -1;
      p += 6;
      if (cp >= 0xd800 && cp <= 0xdbff && p + 1 < end && load<u8>(p) == 0x5c && load<u8>(p + 1) == 0x75) {
        const lo = hex4(p + 2, end);
        if (lo >= 0xdc00 && lo <= 0xdfff) { cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00); p += 6; }
      }
      if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
      if (cp < 0x80) {
        if (write) store<u8>(o, <u8>cp);
        o += 1;
      } else if (cp < 0x800) {
        if (write) { store<u8>(o, <u8>(0xc0 | (cp >> 6))); store<u8>(o + 1, <u8>(0x80 | (cp & 0x3f))); }
        o += 2;
      } else if (cp < 0x10000) {
        if (write) { store<u8>(o, <u8>(0xe0 | (cp >> 12))); store<u8>(o + 1, <u8>(0x80 | ((cp >> 6) & 0x3f))); store<u8>(o + 2, <u8>(0x80 | (cp & 0x3f))); }
        o += 3;
      } else {
        if (write) {
          store<u8>(o, <u8>(0xf0 | (cp >> 18))); store<u8>(o + 1, <u8>(0x80 | ((cp >> 12) & 0x3f)));
          store<u8>(o + 2, <u8>(0x80 | ((cp >> 6) & 0x3f))); store<u8>(o + 3, <u8>(0x80 | (cp & 0x3f)));
        }
        o += 4;
      }
      continue;
    }
    if (cp < 0) return -1;
    if (write) store<u8>(o, <u8>cp);
    o += 1;
    p += 2;
  }
  return -1; // not reached: the loop returns
}

/**
 * The binary sniff's counts over bytes [ptr, ptr + len): -1 when a NUL byte is there, else the
 * number of C0 control bytes other than tab, line feed, form feed, carriage return and escape.
 */
export function js_controls(ptr: usize, len: usize): i32 {
  const end = ptr + len;
  let p = ptr, n = 0;
  // 16 bytes at a time while none counts (SIMD: tab, line feed, form feed, carriage return and
  // escape do not stop the run), or 8 while none is below 0x20 (SWAR); then the block byte by byte
  while (true) {
    if (ASC_FEATURE_SIMD) {
      const c = i8x16.splat(0x20), t = i8x16.splat(9), l = i8x16.splat(10), f = i8x16.splat(12), r = i8x16.splat(13), e = i8x16.splat(27);
      while (p + 16 <= end) {
        const v = v128.load(p);
        const fine = v128.or(v128.or(v128.or(i8x16.eq(v, t), i8x16.eq(v, l)), v128.or(i8x16.eq(v, f), i8x16.eq(v, r))), i8x16.eq(v, e));
        if (i8x16.bitmask(v128.andnot(i8x16.lt_u(v, c), fine)) != 0) break;
        p += 16;
      }
    } else {
      while (p + 8 <= end && below20(load<u64>(p)) == 0) p += 8;
    }
    const stop = min(p + 16, end);
    if (p >= end) return n;
    for (; p < stop; p++) {
      const x = <u32>load<u8>(p);
      if (x >= 0x20) continue;
      if (x == 0) return -1;
      if (x != 9 && x != 10 && x != 13 && x != 12 && x != 27) n++;
    }
  }
  return n; // not reached: the loop returns
}
