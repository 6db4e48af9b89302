// An open-addressing hash map from 64-bit keys (two u32 words) to non-negative int32 values, in
// typed arrays: 12 bytes a slot, no object per key (a Map<bigint, number> costs ~70 bytes an entry).

/** u64 → int32 map; `get` returns -1 when absent. Linear probing, load ≤ 1/2. */
export class U64Map {
  private hi: Uint32Array;
  private lo: Uint32Array;
  private val: Int32Array;
  private mask: number;
  size = 0;

  /** A map sized for about `expected` keys. */
  constructor(expected = 16) {
    let cap = 16;
    while (cap < expected * 2) cap *= 2;
    this.hi = new Uint32Array(cap); this.lo = new Uint32Array(cap);
    this.val = new Int32Array(cap).fill(-1);
    this.mask = cap - 1;
  }

  private slot(hi: number, lo: number): number {
    let h = Math.imul(hi ^ Math.imul(lo, 0x9e3779b1), 0x85ebca6b);
    h ^= h >>> 15;
    let i = h & this.mask;
    while (this.val[i] >= 0 && (this.hi[i] !== hi || this.lo[i] !== lo)) i = (i + 1) & this.mask;
    return i;
  }

  /** The value of key hi:lo, or -1. */
  get(hi: number, lo: number): number {
    return this.val[this.slot(hi, lo)];
  }

  /** Sets hi:lo → v unless the key is present; returns the value now stored. */
  setIfAbsent(hi: number, lo: number, v: number): number {
    const i = this.slot(hi, lo);
    if (this.val[i] >= 0) return this.val[i];
    this.hi[i] = hi; this.lo[i] = lo; this.val[i] = v;
    if (++this.size * 2 > this.mask + 1) this.rehash();
    return v;
  }

  /** Sets hi:lo → v, replacing a value already stored. */
  set(hi: number, lo: number, v: number): void {
    const i = this.slot(hi, lo);
    if (this.val[i] >= 0) { this.val[i] = v; return; }
    this.hi[i] = hi; this.lo[i] = lo; this.val[i] = v;
    if (++this.size * 2 > this.mask + 1) this.rehash();
  }

  private rehash(): void {
    const { hi, lo, val } = this;
    const cap = (this.mask + 1) * 2;
    this.hi = new Uint32Array(cap); this.lo = new Uint32Array(cap);
    this.val = new Int32Array(cap).fill(-1);
    this.mask = cap - 1;
    for (let i = 0; i < val.length; i++) {
      if (val[i] < 0) continue;
      const j = this.slot(hi[i], lo[i]);
      this.hi[j] = hi[i]; this.lo[j] = lo[i]; this.val[j] = val[i];
    }
  }
}
