// Rabin fingerprints over GF(2) modulo the irreducible polynomial
//   P(x) = x^64 + POLY  (POLY = 0xd4a41f7ee59d7dff, bit i = coefficient of x^i)
// Rabin(b_1..b_n) = (x^(8n) + Σ b_i(x)·x^(8(n−i))) mod P: the state starts at 1 (an implicit
// leading 1, so leading zero bytes and lengths are told apart) and each byte is appended
// MSB first. Tables are computed at start-up; the window tables are keyed by their window and
// rebuilt when it changes (never a stale table behind a global flag).

export const POLY: u64 = 0xd4a41f7ee59d7dff;

/** T[t] = t(x)·x^64 mod P: appends one byte. */
export const T: usize = memory.data(256 * 8, 16);
/** Q[k][b] = b(x)·x^(64+8k) mod P: multiplies a state by x^64 with 8 independent look-ups. */
export const Q: usize = memory.data(8 * 256 * 8, 16);
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

/** Fills 8 tables O[k][b] = b(x)·X·x^(8k): multiplies a 64-bit word by X with 8 look-ups. */
export function fillWordTables(tables: usize, X: u64): void {
  let v = X;
  for (let k = 0; k < 8; k++) {
    fillTable(tables + (<usize>k << 11), v);
    for (let i = 0; i < 8; i++) v = mulx(v);
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

/** (word tables)·w: w(x)·X mod P for the X the tables were filled with. */
@inline export function mulWord(tables: usize, w: u64): u64 {
  return load<u64>(tables + (<usize>(w & 0xff) << 3))
    ^ load<u64>(tables + 2048 + (<usize>((w >> 8) & 0xff) << 3))
    ^ load<u64>(tables + 4096 + (<usize>((w >> 16) & 0xff) << 3))
    ^ load<u64>(tables + 6144 + (<usize>((w >> 24) & 0xff) << 3))
    ^ load<u64>(tables + 8192 + (<usize>((w >> 32) & 0xff) << 3))
    ^ load<u64>(tables + 10240 + (<usize>((w >> 40) & 0xff) << 3))
    ^ load<u64>(tables + 12288 + (<usize>((w >> 48) & 0xff) << 3))
    ^ load<u64>(tables + 14336 + (<usize>(w >> 56) << 3));
}

/** Appends a 64-bit word (its 8 bytes, most significant first): h·x^64 + w mod P. */
@inline export function pushWord(h: u64, w: u64): u64 {
  return mulWord(Q, h) ^ w;
}

/** Continues a Rabin state over len bytes at ptr, 8 bytes at a time where it can. */
export function rabinUpdate(h: u64, ptr: usize, len: usize): u64 {
  const end = ptr + len;
  const end8 = ptr + (len & ~<usize>7);
  while (ptr < end8) {
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

/**
 * Rolling fingerprints over every window of n bytes: writes len − n + 1 values (Rabin of the
 * window, as one-shot would give), or returns −1 when outCap is too small.
 */
export function rb_rolling(ptr: usize, len: u32, n: u32, out: usize, outCap: u32): i32 {
  if (n == 0) return -3;
  if (len < n) return 0;
  const count = len - n + 1;
  if (count > outCap) return -1;
  windowTables(n);
  let h: u64 = 0;
  for (let i: u32 = 0; i < n; i++) h = step(h, load<u8>(ptr + i));
  store<u64>(out, h ^ windowLead);
  for (let i: u32 = n; i < len; i++) {
    h = step(h, load<u8>(ptr + i)) ^ load<u64>(OUTB + (<usize>load<u8>(ptr + i - n) << 3));
    store<u64>(out + (<usize>(i - n + 1) << 3), h ^ windowLead);
  }
  return <i32>count;
}

/**
 * Content-defined chunking: a chunk ends after byte i when it is at least minSize long and the
 * fingerprint of the n bytes ending at i satisfies (fp & mask) == target, or when it reaches
 * maxSize; the last chunk ends at len. Writes chunk end offsets (u32); −1 when outCap is short.
 * `carry` bytes before ptr (already chunked) prime the window so a stream chunks as one shot.
 */
export function rb_chunks(ptr: usize, len: u32, carry: u32, n: u32, mask: u64, target: u64,
                          minSize: u32, maxSize: u32, startLen: u32, final: bool, out: usize, outCap: u32): i32 {
  if (n == 0 || minSize == 0 || maxSize < minSize) return -3;
  windowTables(n);
  let h: u64 = 0;
  const base = ptr - carry;
  // Prime the window with the carried bytes (at most n − 1 of them).
  for (let i: u32 = 0; i < carry; i++) h = step(h, load<u8>(base + i));
  let count: u32 = 0;
  let size = startLen;
  for (let i: u32 = 0; i < len; i++) {
    const abs = carry + i;
    h = step(h, load<u8>(base + abs));
    if (abs >= n) h ^= load<u64>(OUTB + (<usize>load<u8>(base + abs - n) << 3));
    size++;
    const full = abs + 1 >= n;
    if ((size >= minSize && full && ((h ^ windowLead) & mask) == target) || size >= maxSize) {
      if (count >= outCap) return -1;
      store<u32>(out + (<usize>count << 2), i + 1);
      count++;
      size = 0;
    }
  }
  if (final && size > 0) {
    if (count >= outCap) return -1;
    store<u32>(out + (<usize>count << 2), len);
    count++;
  }
  return <i32>count;
}
