// Radix sort of (u64 key, u32 payload) entries held as three u32 columns (key high word, key low
// word, payload): the twin of src/cluster/radix-sort.ts. Stable LSD passes of 8-bit digits over
// the high word (a pass where every entry has the same digit is skipped), then runs of equal high
// words are ordered by the low word: insertion sort for short runs, LSD passes for long ones.
// Memory: the caller passes scratch columns of n entries; nothing is allocated here.

const COUNT = memory.data(257 * 4);

@inline function col(base: usize, i: i32): usize {
  return base + (<usize>i << 2);
}

/** Stable LSD sort of [from, to) by one word (hi when byHi), moving all three columns; 0 or 1 passes left in scratch copied back. */
function lsd(hi: usize, lo: usize, pay: usize, tHi: usize, tLo: usize, tPay: usize, byHi: bool, from: i32, to: i32): void {
  const n = to - from;
  let sHi = hi, sLo = lo, sPay = pay, dHi = tHi, dLo = tLo, dPay = tPay;
  for (let shift: u32 = 0; shift < 32; shift += 8) {
    const key = byHi ? sHi : sLo;
    memory.fill(COUNT, 0, 257 * 4);
    for (let i = from; i < to; i++) {
      const b = COUNT + (<usize>(((load<u32>(col(key, i)) >>> shift) & 255) + 1) << 2);
      store<u32>(b, load<u32>(b) + 1);
    }
    let single = false;
    for (let b = 1; b <= 256; b++) {
      const c = load<u32>(COUNT + (<usize>b << 2));
      if (c == <u32>n) { single = true; break; }
      if (c != 0) break;
    }
    if (single) continue;
    store<u32>(COUNT, <u32>from);
    for (let b = 1; b <= 256; b++) {
      const p = COUNT + (<usize>b << 2);
      store<u32>(p, load<u32>(p) + load<u32>(p - 4));
    }
    for (let i = from; i < to; i++) {
      const b = COUNT + (<usize>((load<u32>(col(key, i)) >>> shift) & 255) << 2);
      const q = <i32>load<u32>(b);
      store<u32>(b, <u32>(q + 1));
      store<u32>(col(dHi, q), load<u32>(col(sHi, i)));
      store<u32>(col(dLo, q), load<u32>(col(sLo, i)));
      store<u32>(col(dPay, q), load<u32>(col(sPay, i)));
    }
    let x = sHi; sHi = dHi; dHi = x;
    x = sLo; sLo = dLo; dLo = x;
    x = sPay; sPay = dPay; dPay = x;
  }
  if (sHi != hi) {
    const bytes = <usize>n << 2;
    memory.copy(col(hi, from), col(sHi, from), bytes);
    memory.copy(col(lo, from), col(sLo, from), bytes);
    memory.copy(col(pay, from), col(sPay, from), bytes);
  }
}

/** Sorts entries [0, n) by hi:lo ascending, stable; scratch columns of ≥ n entries. Returns n, or -3 for n < 0. */
export function sort_keyed(hi: usize, lo: usize, pay: usize, n: i32, tHi: usize, tLo: usize, tPay: usize): i32 {
  if (n < 0) return -3;
  lsd(hi, lo, pay, tHi, tLo, tPay, true, 0, n);
  let i = 0;
  while (i < n) {
    const h = load<u32>(col(hi, i));
    let j = i + 1;
    while (j < n && load<u32>(col(hi, j)) == h) j++;
    if (j - i > 48) lsd(hi, lo, pay, tHi, tLo, tPay, false, i, j);
    else if (j - i > 1) {
      for (let k = i + 1; k < j; k++) {
        const l = load<u32>(col(lo, k)), p = load<u32>(col(pay, k));
        let m = k - 1;
        while (m >= i && load<u32>(col(lo, m)) > l) {
          store<u32>(col(lo, m + 1), load<u32>(col(lo, m)));
          store<u32>(col(pay, m + 1), load<u32>(col(pay, m)));
          m--;
        }
        store<u32>(col(lo, m + 1), l);
        store<u32>(col(pay, m + 1), p);
      }
    }
    i = j;
  }
  return n;
}
