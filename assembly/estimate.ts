// Broder's MIN_s estimates for many candidate pairs in one call. Per pair, six counts go out (the
// TypeScript side divides, as src/cluster/estimate.ts's estimateMin does, so both give the same
// numbers): the union's first s values taken (n), those shared (x), all values shared, and below τ
// (the smaller largest value of a full row, else above every value) the values of a, of b, and
// those shared. A shared value is at most the largest of either row, so at most τ: the shared
// values below τ are all the shared values, and the merge only counts shared ones; the values
// below τ of each row are counted from its end afterwards (τ is one row's last value, and the other
// row's values above it are few).
// Two pairs are merged at a time, without a branch per step: a merge step waits on the loads of
// the step before, and two independent merges interleaved fill that wait (1.45× one at a time).
// Twin: estimateMin in src/cluster/estimate.ts.

/** τ of rows [sa, ea) and [sb, eb): the largest value of a full row (the smaller of two), else above every value. */
@inline function tauOf(values: usize, sa: usize, ea: usize, sb: usize, eb: usize, s: i32): u64 {
  let tau: u64 = u64.MAX_VALUE;
  if (<i32>(ea - sa) >= s) tau = load<u64>(values + ((ea - 1) << 3));
  if (<i32>(eb - sb) >= s) { const t = load<u64>(values + ((eb - 1) << 3)); if (t < tau) tau = t; }
  return tau;
}

/** How many values of the ascending row [start, end) are at most tau. */
@inline function belowTau(values: usize, start: usize, end: usize, tau: u64): u32 {
  let e = end;
  while (e > start && load<u64>(values + ((e - 1) << 3)) > tau) e--;
  return <u32>(e - start);
}

/** Stores pair q's counts; `taken` is completed with what the merge left of both rows, capped at s. */
@inline function store6(values: usize, out: usize, q: i32, s: i32, taken: u32, x: u32, shared: u32,
  i: usize, sa: usize, ea: usize, k: usize, sb: usize, eb: usize): void {
  const cap = <u32>s, rest = taken + <u32>(ea - i) + <u32>(eb - k);
  const tau = tauOf(values, sa, ea, sb, eb, s);
  const o = out + <usize>q * 24;
  store<u32>(o, rest < cap ? rest : cap); store<u32>(o, x, 4); store<u32>(o, shared, 8);
  store<u32>(o, belowTau(values, sa, ea, tau), 12); store<u32>(o, belowTau(values, sb, eb, tau), 16); store<u32>(o, shared, 20);
}

/**
 * values: every row's u64 values, readable 8 bytes past the last; offsets: u32 row starts (row d is
 * [offsets[d], offsets[d+1])); pa, pb: u32 document ids of n pairs; s: the sketch size; out: 6 u32
 * counts per pair (n, x, shared, belowA, belowB, foundBelow). Returns n.
 */
export function es_min_pairs(values: usize, offsets: usize, pa: usize, pb: usize, n: i32, s: i32, out: usize): i32 {
  const cap = <u32>s;
  let q = 0;
  for (; q + 1 < n; q += 2) {
    const a1 = <usize>load<u32>(pa + (<usize>q << 2)), b1 = <usize>load<u32>(pb + (<usize>q << 2));
    const a2 = <usize>load<u32>(pa + (<usize>q << 2) + 4), b2 = <usize>load<u32>(pb + (<usize>q << 2) + 4);
    const sa1 = <usize>load<u32>(offsets + (a1 << 2)), ea1 = <usize>load<u32>(offsets + (a1 << 2) + 4);
    const sb1 = <usize>load<u32>(offsets + (b1 << 2)), eb1 = <usize>load<u32>(offsets + (b1 << 2) + 4);
    const sa2 = <usize>load<u32>(offsets + (a2 << 2)), ea2 = <usize>load<u32>(offsets + (a2 << 2) + 4);
    const sb2 = <usize>load<u32>(offsets + (b2 << 2)), eb2 = <usize>load<u32>(offsets + (b2 << 2) + 4);
    let i1 = sa1, k1 = sb1, i2 = sa2, k2 = sb2;
    let t1: u32 = 0, x1: u32 = 0, sh1: u32 = 0, t2: u32 = 0, x2: u32 = 0, sh2: u32 = 0;
    let on1 = <u32>(i1 < ea1 && k1 < eb1), on2 = <u32>(i2 < ea2 && k2 < eb2);
    while ((on1 | on2) != 0) {
      // a finished merge steps with every increment masked to 0 (its loads stay in bounds, unused)
      const va1 = load<u64>(values + (i1 << 3)), vb1 = load<u64>(values + (k1 << 3));
      const va2 = load<u64>(values + (i2 << 3)), vb2 = load<u64>(values + (k2 << 3));
      const m1 = 0 - on1, m2 = 0 - on2;
      const lt1 = <u32>(va1 < vb1), gt1 = <u32>(va1 > vb1), lt2 = <u32>(va2 < vb2), gt2 = <u32>(va2 > vb2);
      const eq1 = (1 - lt1 - gt1) & m1, eq2 = (1 - lt2 - gt2) & m2;
      const in1 = <u32>(t1 < cap) & on1, in2 = <u32>(t2 < cap) & on2;
      t1 += in1; x1 += eq1 & in1; sh1 += eq1;
      t2 += in2; x2 += eq2 & in2; sh2 += eq2;
      i1 += <usize>((lt1 | eq1) & m1); k1 += <usize>((gt1 | eq1) & m1);
      i2 += <usize>((lt2 | eq2) & m2); k2 += <usize>((gt2 | eq2) & m2);
      on1 = <u32>(i1 < ea1) & <u32>(k1 < eb1); on2 = <u32>(i2 < ea2) & <u32>(k2 < eb2);
    }
    store6(values, out, q, s, t1, x1, sh1, i1, sa1, ea1, k1, sb1, eb1);
    store6(values, out, q + 1, s, t2, x2, sh2, i2, sa2, ea2, k2, sb2, eb2);
  }
  if (q < n) {
    // an odd pair left: merged alone
    const a = <usize>load<u32>(pa + (<usize>q << 2)), b = <usize>load<u32>(pb + (<usize>q << 2));
    const sa = <usize>load<u32>(offsets + (a << 2)), ea = <usize>load<u32>(offsets + (a << 2) + 4);
    const sb = <usize>load<u32>(offsets + (b << 2)), eb = <usize>load<u32>(offsets + (b << 2) + 4);
    let i = sa, k = sb, taken: u32 = 0, x: u32 = 0, shared: u32 = 0;
    while (i < ea && k < eb) {
      const va = load<u64>(values + (i << 3)), vb = load<u64>(values + (k << 3));
      const lt = <u32>(va < vb), gt = <u32>(va > vb), eq = 1 - lt - gt, inS = <u32>(taken < cap);
      taken += inS; x += eq & inS; shared += eq;
      i += <usize>(lt | eq); k += <usize>(gt | eq);
    }
    store6(values, out, q, s, taken, x, shared, i, sa, ea, k, sb, eb);
  }
  return n;
}
