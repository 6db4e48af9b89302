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

// Candidate chunk ends of one block (absolute positions), filled by four lanes.
const BLOCK: u32 = 1 << 16;
const CAND: usize = memory.data(<i32>BLOCK * 4, 16);

/**
 * Appends to CAND the positions e in [from, to) where the window ending at e is full
 * (e + 1 ≥ n) and (fingerprint & mask) == target, scanning four quarters as interleaved lanes.
 * Returns the number of candidates. Lane j's candidates precede lane j + 1's: they stay sorted.
 */
function candidates(base: usize, from: usize, to: usize, n: u32, mask: u64, target: u64): u32 {
  const nn = <usize>n;
  const lead = windowLead;
  const L = (to - from) >> 2;
  const a0 = from, a1 = from + L, a2 = from + L * 2, a3 = from + L * 3;
  const p0 = a0 + 1 > nn ? a0 + 1 - nn : 0, p1 = a1 + 1 > nn ? a1 + 1 - nn : 0;
  const p2 = a2 + 1 > nn ? a2 + 1 - nn : 0, p3 = a3 + 1 > nn ? a3 + 1 - nn : 0;
  let h0 = prime(base, p0, a0), h1 = prime(base, p1, a1), h2 = prime(base, p2, a2), h3 = prime(base, p3, a3);
  const quarter = <usize>(BLOCK >> 2);
  let c0: u32 = 0, c1: u32 = 0, c2: u32 = 0, c3: u32 = 0;
  for (let t: usize = 0; t < L; t++) {
    const e0 = a0 + t, e1 = a1 + t, e2 = a2 + t, e3 = a3 + t;
    h0 = roll(h0, base, e0, n, p0 + nn);
    h1 = roll(h1, base, e1, n, p1 + nn);
    h2 = roll(h2, base, e2, n, p2 + nn);
    h3 = roll(h3, base, e3, n, p3 + nn);
    if (((h0 ^ lead) & mask) == target && e0 + 1 >= nn) { store<u32>(CAND + ((<usize>c0) << 2), <u32>e0); c0++; }
    if (((h1 ^ lead) & mask) == target && e1 + 1 >= nn) { store<u32>(CAND + ((quarter + c1) << 2), <u32>e1); c1++; }
    if (((h2 ^ lead) & mask) == target && e2 + 1 >= nn) { store<u32>(CAND + ((quarter * 2 + c2) << 2), <u32>e2); c2++; }
    if (((h3 ^ lead) & mask) == target && e3 + 1 >= nn) { store<u32>(CAND + ((quarter * 3 + c3) << 2), <u32>e3); c3++; }
  }
  for (let e = a3 + L; e < to; e++) {
    h3 = roll(h3, base, e, n, p3 + nn);
    if (((h3 ^ lead) & mask) == target && e + 1 >= nn) { store<u32>(CAND + ((quarter * 3 + c3) << 2), <u32>e); c3++; }
  }
  // gather the lanes in order
  memory.copy(CAND + (<usize>c0 << 2), CAND + (quarter << 2), <usize>c1 << 2);
  memory.copy(CAND + (<usize>(c0 + c1) << 2), CAND + (quarter * 2 << 2), <usize>c2 << 2);
  memory.copy(CAND + (<usize>(c0 + c1 + c2) << 2), CAND + (quarter * 3 << 2), <usize>c3 << 2);
  return c0 + c1 + c2 + c3;
}

/**
 * Content-defined chunking: a chunk ends after byte i when it is at least minSize long and the
 * fingerprint of the n bytes ending at i satisfies (fp & mask) == target, or when it reaches
 * maxSize; with `final`, the last chunk ends at len. Writes chunk end offsets (u32, relative to
 * ptr); −1 when outCap is short. The `carry` bytes before ptr (at most n − 1, already chunked)
 * prime the window and startLen bytes of an open chunk came before, so a stream chunks as one
 * shot. Candidates come from the four-lane scan, block by block; the size rules are applied to
 * them in order.
 */
export function rb_chunks(ptr: usize, len: u32, carry: u32, n: u32, mask: u64, target: u64,
                          minSize: u32, maxSize: u32, startLen: u32, final: bool, out: usize, outCap: u32): i32 {
  if (n == 0 || minSize == 0 || maxSize < minSize) return -3;
  windowTables(n);
  const base = ptr - carry;
  const first = <i64>carry, stop = <i64>carry + <i64>len;
  let lastCut: i64 = first - <i64>startLen;   // where the open chunk began (absolute)
  let count: u32 = 0;
  for (let b0 = first; b0 < stop; b0 += <i64>BLOCK) {
    const b1 = min(stop, b0 + <i64>BLOCK);
    const nc = candidates(base, <usize>b0, <usize>b1, n, mask, target);
    for (let i: u32 = 0; i < nc; i++) {
      const end = <i64>load<u32>(CAND + (<usize>i << 2)) + 1;
      while (end - lastCut > <i64>maxSize) {
        if (count >= outCap) return -1;
        lastCut += <i64>maxSize;
        store<u32>(out + (<usize>count << 2), <u32>(lastCut - first)); count++;
      }
      if (end - lastCut >= <i64>minSize) {
        if (count >= outCap) return -1;
        lastCut = end;
        store<u32>(out + (<usize>count << 2), <u32>(lastCut - first)); count++;
      }
    }
    while (lastCut + <i64>maxSize <= b1) {
      if (count >= outCap) return -1;
      lastCut += <i64>maxSize;
      store<u32>(out + (<usize>count << 2), <u32>(lastCut - first)); count++;
    }
  }
  if (final && stop > lastCut) {
    if (count >= outCap) return -1;
    store<u32>(out + (<usize>count << 2), len);
    count++;
  }
  return <i32>count;
}
