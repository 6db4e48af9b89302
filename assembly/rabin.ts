// Rabin fingerprints over GF(2) modulo the irreducible polynomial
//   P(x) = x^64 + POLY  (POLY = 0xd4a41f7ee59d7dff, bit i = coefficient of x^i)
// Rabin(b_1..b_n) = (x^(8n) + Σ b_i(x)·x^(8(n−i))) mod P: the state starts at 1 (an implicit
// leading 1, so leading zero bytes and lengths are told apart) and each byte is appended
// MSB first. Tables are computed at start-up; the window tables are keyed by their window and
// rebuilt when it changes (never a stale table behind a global flag).

export const POLY: u64 = 0xd4a41f7ee59d7dff;

/** T[t] = t(x)·x^64 mod P: appends one byte. */
export const T: usize = memory.data(256 * 8, 16);
/**
 * Word tables multiply a 64-bit word by a fixed residue X with 6 independent look-ups: the word
 * is cut into chunks of 11, 11, 11, 11, 10 and 10 bits (lowest first), and table k holds
 * v(x)·X·x^(o_k) mod P for every value v of chunk k, o_k its lowest bit (80 KiB, inside L2;
 * byte-wide tables would take 8 look-ups).
 */
export const WORD_TABLES_BYTES: i32 = 4 * 2048 * 8 + 2 * 1024 * 8;
/** Q: word tables for X = x^64 (pushWord). */
export const Q: usize = memory.data(WORD_TABLES_BYTES, 16);
/** XPOW64[k] = x^(64k) mod P for k = 0..64: the leading 1 of a k-word string. */
export const XPOW64: usize = memory.data(65 * 8, 16);

@inline export function mulx(a: u64): u64 {
  return (a << 1) ^ (POLY & (0 - (a >> 63)));
}

/** Fills tbl[b] = b(x)·X for b = 0..255, where X is a residue mod P. */
export function fillTable(tbl: usize, X: u64): void {
  const pw = memory.data(8 * 8, 16);
  let v = X;
  for (let j = 0; j < 8; j++) { store<u64>(pw + (<usize>j << 3), v); v = mulx(v); }
  store<u64>(tbl, 0);
  for (let b: u32 = 1; b < 256; b++) {
    const low = b & (b - 1);
    store<u64>(tbl + (<usize>b << 3), load<u64>(tbl + (<usize>low << 3)) ^ load<u64>(pw + (<usize>ctz(b) << 3)));
  }
}

/** x^e mod P by repeated multiplication by x (e is small here: at most a few hundred thousand). */
export function xpow(e: u32): u64 {
  let v: u64 = 1;
  for (let i: u32 = 0; i < e; i++) v = mulx(v);
  return v;
}

/** Fills tbl[v] = v(x)·X for v < 2^bits. */
function fillChunkTable(tbl: usize, X: u64, bits: u32): void {
  const pw = memory.data(16 * 8, 16);
  let v = X;
  for (let j: u32 = 0; j < bits; j++) { store<u64>(pw + (<usize>j << 3), v); v = mulx(v); }
  store<u64>(tbl, 0);
  for (let b: u32 = 1; b < (<u32>1 << bits); b++) {
    const low = b & (b - 1);
    store<u64>(tbl + (<usize>b << 3), load<u64>(tbl + (<usize>low << 3)) ^ load<u64>(pw + (<usize>ctz(b) << 3)));
  }
}

/** Fills word tables (WORD_TABLES_BYTES at tables) for X: mulWord(tables, w) = w(x)·X mod P. */
export function fillWordTables(tables: usize, X: u64): void {
  let v = X;
  let at = tables;
  for (let k: u32 = 0; k < 6; k++) {
    const bits: u32 = k < 4 ? 11 : 10;
    fillChunkTable(at, v, bits);
    for (let i: u32 = 0; i < bits; i++) v = mulx(v);
    at += <usize>8 << bits;
  }
}

function initTables(): void {
  fillTable(T, POLY);
  fillWordTables(Q, POLY);
  let v: u64 = 1;
  for (let k = 0; k <= 64; k++) {
    store<u64>(XPOW64 + (<usize>k << 3), v);
    for (let i = 0; i < 64; i++) v = mulx(v);
  }
}
initTables();

/** Appends one byte to a Rabin state. */
@inline export function step(h: u64, c: u32): u64 {
  return ((h << 8) | <u64>c) ^ load<u64>(T + (<usize>(h >> 56) << 3));
}

/** (word tables)·w: w(x)·X mod P for the X the tables were filled with (6 look-ups). */
@inline export function mulWord(tables: usize, w: u64): u64 {
  return load<u64>(tables + (<usize>(w & 0x7ff) << 3))
    ^ load<u64>(tables + 16384 + (<usize>((w >> 11) & 0x7ff) << 3))
    ^ load<u64>(tables + 32768 + (<usize>((w >> 22) & 0x7ff) << 3))
    ^ load<u64>(tables + 49152 + (<usize>((w >> 33) & 0x7ff) << 3))
    ^ load<u64>(tables + 65536 + (<usize>((w >> 44) & 0x3ff) << 3))
    ^ load<u64>(tables + 73728 + (<usize>(w >> 54) << 3));
}

/** Appends a 64-bit word (its 8 bytes, most significant first): h·x^64 + w mod P. */
@inline export function pushWord(h: u64, w: u64): u64 {
  return mulWord(Q, h) ^ w;
}

// A block of 32 bytes is W0·x^192 + W1·x^128 + W2·x^64 + W3 for its four big-endian words W0..W3:
// each byte of W0..W2 indexes a table of its own (byte · x^(its place) mod P, 256 entries), read
// straight from memory, so those words need neither a byte swap nor chunk shifts and masks; W3
// below x^64 needs no reduction: it is the word byte-swapped. Blocks go to two chains, the even
// blocks and the odd ones, each multiplied by x^512 a step through word tables (6 look-ups): the
// chains' look-ups overlap instead of waiting on each other, and Rabin = even·x^256 + odd.
/** Word tables for X = x^512. */
const Q512: usize = memory.data(WORD_TABLES_BYTES, 16);
/** STEP_BYTES + 2048·(8j + b): byte b of word j (j < 3) times x^(8(7 − b) + 64(3 − j)) mod P. */
const STEP_BYTES: usize = memory.data(3 * 8 * 256 * 8, 16);

function initStepTables(): void {
  fillWordTables(Q512, xpow(512));
  for (let j: u32 = 0; j < 3; j++) {
    for (let b: u32 = 0; b < 8; b++) fillTable(STEP_BYTES + (<usize>(8 * j + b) << 11), xpow(8 * (7 - b) + 64 * (3 - j)));
  }
}
initStepTables();

/** Σ byte b of the 8 bytes at p · (its table at tbl + 2048·b): a word's product with a fixed power, from its bytes. */
@inline function bytesTimes(tbl: usize, p: usize): u64 {
  return load<u64>(tbl + (<usize>load<u8>(p) << 3))
    ^ load<u64>(tbl + 2048 + (<usize>load<u8>(p + 1) << 3))
    ^ load<u64>(tbl + 4096 + (<usize>load<u8>(p + 2) << 3))
    ^ load<u64>(tbl + 6144 + (<usize>load<u8>(p + 3) << 3))
    ^ load<u64>(tbl + 8192 + (<usize>load<u8>(p + 4) << 3))
    ^ load<u64>(tbl + 10240 + (<usize>load<u8>(p + 5) << 3))
    ^ load<u64>(tbl + 12288 + (<usize>load<u8>(p + 6) << 3))
    ^ load<u64>(tbl + 14336 + (<usize>load<u8>(p + 7) << 3));
}

/** Table entries for bytes q and q + 1 of the 32 at p (q even, < 24; the byte offsets immediate), as the two lanes of a vector (SIMD build). */
@inline function pairAt(p: usize, q0: u8, q1: u8): v128 {
  const lo = v128.load64_zero(STEP_BYTES + (<usize>q0 << 11) + (<usize>load<u8>(p + <usize>q0) << 3));
  return v128.load64_lane(STEP_BYTES + (<usize>q1 << 11) + (<usize>load<u8>(p + <usize>q1) << 3), lo, 1);
}

/** Byte reversal of the low 8 bytes of a vector (a swizzle mask, loaded: a constant vector is rebuilt at each use). */
const REVERSE8: usize = memory.data<u8>([7, 6, 5, 4, 3, 2, 1, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80], 16);

/** The 32 bytes at p as a polynomial mod P. The SIMD build gathers the 24 look-ups two to a vector and sums them there (fewer registers to spill), and byte-swaps W3 by a swizzle. */
@inline function blockValue(p: usize): u64 {
  if (ASC_FEATURE_SIMD) {
    let v = v128.xor(pairAt(p, 0, 1), pairAt(p, 2, 3));
    v = v128.xor(v, v128.xor(pairAt(p, 4, 5), pairAt(p, 6, 7)));
    v = v128.xor(v, v128.xor(pairAt(p, 8, 9), pairAt(p, 10, 11)));
    v = v128.xor(v, v128.xor(pairAt(p, 12, 13), pairAt(p, 14, 15)));
    v = v128.xor(v, v128.xor(pairAt(p, 16, 17), pairAt(p, 18, 19)));
    v = v128.xor(v, v128.xor(pairAt(p, 20, 21), pairAt(p, 22, 23)));
    v = v128.xor(v, i8x16.swizzle(v128.load64_zero(p + 24), v128.load(REVERSE8)));
    return <u64>i64x2.extract_lane(v, 0) ^ <u64>i64x2.extract_lane(v, 1);
  } else {
    return bytesTimes(STEP_BYTES, p) ^ bytesTimes(STEP_BYTES + 16384, p + 8) ^ bytesTimes(STEP_BYTES + 32768, p + 16) ^ bswap<u64>(load<u64>(p + 24));
  }
}

/** h·x^256 mod P: four words' shift (used once per document, at the chains' join). */
@inline function times256(h: u64): u64 {
  return mulWord(Q, mulWord(Q, mulWord(Q, mulWord(Q, h))));
}

/** Continues a Rabin state over len bytes at ptr: 64 bytes a step in two chains, then 8, then bytes. */
export function rabinUpdate(h: u64, ptr: usize, len: usize): u64 {
  const end = ptr + len;
  if (ptr + 64 <= end) {
    // the even blocks' chain starts empty, the odd blocks' chain carries the state: h·x^(256m) lands in it
    let even: u64 = 0, odd = h;
    while (ptr + 64 <= end) {
      even = mulWord(Q512, even) ^ blockValue(ptr);
      odd = mulWord(Q512, odd) ^ blockValue(ptr + 32);
      ptr += 64;
    }
    h = times256(even) ^ odd;
  }
  while (ptr + 8 <= end) {
    h = pushWord(h, bswap<u64>(load<u64>(ptr)));
    ptr += 8;
  }
  while (ptr < end) { h = step(h, load<u8>(ptr)); ptr++; }
  return h;
}

/** Continues a Rabin state (state 1 = empty string) over bytes; for streaming. */
export function rb_update(h: u64, ptr: usize, len: usize): u64 {
  return rabinUpdate(h, ptr, len);
}

/** Rabin fingerprints of n byte strings packed at bytes with offsets[0..n] (u32): writes n u64. */
export function rb_fingerprint_batch(bytes: usize, offsets: usize, n: i32, out: usize): i32 {
  for (let i = 0; i < n; i++) {
    const a = load<u32>(offsets + (<usize>i << 2));
    const b = load<u32>(offsets + (<usize>(i + 1) << 2));
    store<u64>(out + (<usize>i << 3), rabinUpdate(1, bytes + a, b - a));
  }
  return n;
}

// Byte windows: OUTB[b] = b(x)·x^(8n) mod P removes the byte leaving an n-byte window.
const OUTB: usize = memory.data(256 * 8, 16);
let outbWindow: u32 = 0;
let windowLead: u64 = 1;

function windowTables(n: u32): void {
  if (n == outbWindow) return;
  windowLead = xpow(n << 3);
  fillTable(OUTB, windowLead);
  outbWindow = n;
}

/** Window ending at byte e (an absolute index), rolled from state h; the byte leaving is removed once e ≥ lim. */
@inline function roll(h: u64, base: usize, e: usize, n: u32, lim: usize): u64 {
  const out = e >= lim ? load<u64>(OUTB + (<usize>load<u8>(base + e - n) << 3)) : 0;
  return step(h, load<u8>(base + e)) ^ out;
}

/** Rabin state over bytes [from, to) of base (no removal): primes a lane. */
function prime(base: usize, from: usize, to: usize): u64 {
  let h: u64 = 0;
  for (let i = from; i < to; i++) h = step(h, load<u8>(base + i));
  return h;
}

/**
 * Rolling fingerprints over every window of n bytes: writes len − n + 1 values (Rabin of the
 * window, as one-shot would give), or returns −1 when outCap is too small. Each step waits on a
 * table look-up indexed by the previous state, so four lanes over four quarters of the input run
 * interleaved: their chains overlap instead of adding up.
 */
export function rb_rolling(ptr: usize, len: u32, n: u32, out: usize, outCap: u32): i32 {
  if (n == 0) return -3;
  if (len < n) return 0;
  const count = len - n + 1;
  if (count > outCap) return -1;
  windowTables(n);
  const q = <usize>(count >> 2);
  const lead = windowLead;
  const nn = <usize>n;
  // lane j produces outputs [j·q, (j+1)·q): windows ending at bytes j·q + n − 1 + t
  const s1 = q, s2 = q * 2, s3 = q * 3;
  let h0 = prime(ptr, 0, nn - 1), h1 = prime(ptr, s1, s1 + nn - 1), h2 = prime(ptr, s2, s2 + nn - 1), h3 = prime(ptr, s3, s3 + nn - 1);
  for (let t: usize = 0; t < q; t++) {
    const e = t + nn - 1;
    h0 = roll(h0, ptr, e, n, nn);
    h1 = roll(h1, ptr, e + s1, n, s1 + nn);
    h2 = roll(h2, ptr, e + s2, n, s2 + nn);
    h3 = roll(h3, ptr, e + s3, n, s3 + nn);
    store<u64>(out + (t << 3), h0 ^ lead);
    store<u64>(out + ((t + s1) << 3), h1 ^ lead);
    store<u64>(out + ((t + s2) << 3), h2 ^ lead);
    store<u64>(out + ((t + s3) << 3), h3 ^ lead);
  }
  // the last count − 4q outputs continue lane 3 (or start it when q = 0)
  for (let t: usize = q * 4; t < <usize>count; t++) {
    h3 = roll(h3, ptr, t + nn - 1, n, s3 + nn);
    store<u64>(out + (t << 3), h3 ^ lead);
  }
  return <i32>count;
}

// rabin-wasm's chunk boundaries (boundaries 'rabin-wasm'): its fingerprint is the window's bytes
// as a polynomial mod P53 = 0x3DA3358B4DC173 (degree 53), with no leading 1. T53[b] reduces the
// byte shifted out above x^53 and clears it; OUTB53 removes the byte leaving the window.
const P53: u64 = 0x3da3358b4dc173;
const T53: usize = memory.data(256 * 8, 16);
const OUTB53: usize = memory.data(256 * 8, 16);
let outb53Window: u32 = 0;

@inline function mulx53(a: u64): u64 {
  const b = a << 1;
  return b ^ (P53 & (0 - (b >> 53)));
}

/** Fills tbl[b] = b(x)·X mod P53. */
function fillTable53(tbl: usize, X: u64): void {
  for (let b: u32 = 0; b < 256; b++) {
    let v: u64 = 0, m = X;
    for (let j: u32 = 0; j < 8; j++) { if ((b >> j) & 1) v ^= m; m = mulx53(m); }
    store<u64>(tbl + (<usize>b << 3), v);
  }
}

function initTables53(): void {
  fillTable53(T53, P53 ^ (<u64>1 << 53));   // x^53 mod P53
  for (let b: u32 = 0; b < 256; b++) store<u64>(T53 + (<usize>b << 3), load<u64>(T53 + (<usize>b << 3)) | (<u64>b << 53));
}
initTables53();

function windowTables53(n: u32): void {
  if (n == outb53Window) return;
  let X: u64 = 1;
  for (let i: u32 = 0; i < n << 3; i++) X = mulx53(X);
  fillTable53(OUTB53, X);
  outb53Window = n;
}

/** One window step with either flavour's tables: append byte c to h, reduce with tbl (h >> shift indexes it). */
@inline function stepWith(h: u64, c: u32, tbl: usize, shift: u64): u64 {
  return ((h << 8) | <u64>c) ^ load<u64>(tbl + (<usize>(h >> shift) << 3));
}

/**
 * Content-defined chunking: a chunk ends after byte i when it is at least minSize long and the
 * fingerprint of the n bytes ending at i satisfies (fp & mask) == target, or when it reaches
 * maxSize; with `final`, the last chunk ends at len. Writes chunk end offsets (u32, relative to
 * ptr); −1 when outCap is short. The `carry` bytes before ptr (at most n − 1, already chunked)
 * prime the window and startLen bytes of an open chunk came before, so a stream chunks as one
 * shot.
 *
 * No fingerprint is computed where no cut can be: after a cut the scan jumps to the first byte
 * that may end the next chunk (minSize − 1 further) and primes the window from the n − 1 bytes
 * before it, so with rabin-wasm's parameters (min 8 KiB, average 4 KiB after it) about a third
 * of the bytes are rolled.
 */
export function rb_chunks(ptr: usize, len: u32, carry: u32, n: u32, mask: u64, target: u64,
                          minSize: u32, maxSize: u32, startLen: u32, final: bool, flavor: u32, out: usize, outCap: u32): i32 {
  if (n == 0 || minSize == 0 || maxSize < minSize || flavor > 1 || (flavor == 1 && minSize < n)) return -3;
  // flavour 0: resemble's fingerprint (P, leading 1); 1: rabin-wasm's (P53, none; needs minSize ≥ n,
  // so its reset after a cut never shows in a window that is tested)
  const compat = flavor == 1;
  if (compat) windowTables53(n); else windowTables(n);
  const tbl = compat ? T53 : T, outb = compat ? OUTB53 : OUTB, shift: u64 = compat ? 45 : 56;
  const base = ptr - carry;
  const nn = <i64>n;
  const lead = compat ? 0 : windowLead;
  const first = <i64>carry, stop = <i64>carry + <i64>len;
  let lastCut: i64 = first - <i64>startLen;   // where the open chunk began (absolute)
  let count: u32 = 0;
  while (true) {
    // the first byte that may end this chunk, and the byte where it ends at the latest
    const from = max(first, lastCut + <i64>minSize - 1);
    const forced = lastCut + <i64>maxSize - 1;
    if (from >= stop) break;
    const p0 = max(<i64>0, from - nn + 1);
    let h: u64 = 0;
    for (let i = p0; i < from; i++) h = stepWith(h, load<u8>(base + <usize>i), tbl, shift);
    const last = min(forced, stop - 1);
    let e = from, cut: i64 = -1;
    for (; e <= last; e++) {
      h = stepWith(h, load<u8>(base + <usize>e), tbl, shift);
      if (e - nn >= p0) h ^= load<u64>(outb + (<usize>load<u8>(base + <usize>(e - nn)) << 3));
      if (((h ^ lead) & mask) == target && e + 1 >= nn) { cut = e + 1; break; }
    }
    if (cut < 0) {
      if (last < forced) break;   // the input ended first: the chunk stays open
      cut = forced + 1;
    }
    if (count >= outCap) return -1;
    lastCut = cut;
    store<u32>(out + (<usize>count << 2), <u32>(lastCut - first)); count++;
  }
  if (final && stop > lastCut) {
    if (count >= outCap) return -1;
    store<u32>(out + (<usize>count << 2), len);
    count++;
  }
  return <i32>count;
}
