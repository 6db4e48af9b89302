/**
 * An open-addressing hash table from keys of two or three u32 words to an int32 value, in typed
 * arrays: the 64-bit fingerprints of the index's equivalence maps, the fingerprint-plus-count keys
 * of the subcollection algorithm, the shingle and signature counts of the signatures. A JavaScript
 * Map would box each 64-bit key (~70 bytes an entry); here a slot costs 13 bytes with two-word keys,
 * 17 with three. Linear probing at load ≤ 1/2; the table doubles when an insert would pass that, so
 * a slot number stays valid only until the next insert of a new key: call `slot` first, then read
 * `values` (not `t.values[t.slot(k)]`, which reads the old array when the insert grows it).
 */
export class WordTable {
  private mask: number;
  private a: Uint32Array;
  private b: Uint32Array;
  private c: Uint32Array;
  private used: Uint8Array;
  private readonly fill: number;
  private readonly three: boolean;
  /** The value of each slot (`fill` until set). */
  values: Int32Array;
  /** Keys stored. */
  size = 0;

  /**
   * Takes the number of keys expected (the table grows past it), the initial value of a new slot,
   * and the words a key has (2: the third word is always 0 and not stored).
   */
  constructor(capacity: number, fill = 0, words: 2 | 3 = 3) {
    this.fill = fill;
    this.three = words === 3;
    let slots = 16;
    while (slots < 2 * capacity) slots *= 2;
    this.mask = slots - 1;
    this.a = new Uint32Array(slots);
    this.b = new Uint32Array(slots);
    this.c = new Uint32Array(this.three ? slots : 0);
    this.used = new Uint8Array(slots);
    this.values = new Int32Array(slots).fill(fill);
  }

  private start(a: number, b: number, c: number): number {
    let h = Math.imul(a ^ Math.imul(b, 0x9e3779b1) ^ Math.imul(c, 0x85ebca6b), 0x27d4eb2f);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    return (h ^ (h >>> 13)) & this.mask;
  }

  /** The slot holding key a:b:c, or the empty slot where it would go. */
  private probe(a: number, b: number, c: number): number {
    let s = this.start(a, b, c);
    while (this.used[s] && (this.a[s] !== a || this.b[s] !== b || (this.three && this.c[s] !== c))) s = (s + 1) & this.mask;
    return s;
  }

  /** Takes a key; returns its slot, adding the key when absent. */
  slot(a: number, b: number, c = 0): number {
    a >>>= 0; b >>>= 0; c >>>= 0;
    let s = this.probe(a, b, c);
    if (this.used[s]) return s;
    if ((this.size + 1) * 2 > this.mask + 1) {
      this.grow();
      s = this.probe(a, b, c);
    }
    this.used[s] = 1;
    this.a[s] = a;
    this.b[s] = b;
    if (this.three) this.c[s] = c;
    this.size++;
    return s;
  }

  /** Takes a key; returns its slot, or −1 when absent. */
  find(a: number, b: number, c = 0): number {
    const s = this.probe(a >>> 0, b >>> 0, c >>> 0);
    return this.used[s] ? s : -1;
  }

  /** The value of key a:b (third word 0), or -1 when absent. */
  get(a: number, b: number): number {
    const s = this.find(a, b);
    return s < 0 ? -1 : this.values[s];
  }

  /** Sets a:b → v unless the key is present; returns the value now stored. */
  setIfAbsent(a: number, b: number, v: number): number {
    const before = this.size;
    const s = this.slot(a, b);
    if (this.size > before) this.values[s] = v;
    return this.values[s];
  }

  /** Sets a:b → v, replacing a value already stored. */
  set(a: number, b: number, v: number): void {
    const s = this.slot(a, b); // before reading `values`: an insert may grow the table
    this.values[s] = v;
  }

  private grow(): void {
    const { a, b, c, used, values } = this;
    const slots = (this.mask + 1) * 2;
    this.mask = slots - 1;
    this.a = new Uint32Array(slots);
    this.b = new Uint32Array(slots);
    this.c = new Uint32Array(this.three ? slots : 0);
    this.used = new Uint8Array(slots);
    this.values = new Int32Array(slots).fill(this.fill);
    for (let i = 0; i < used.length; i++) {
      if (!used[i]) continue;
      const k = this.three ? c[i] : 0;
      const s = this.probe(a[i], b[i], k);
      this.used[s] = 1;
      this.a[s] = a[i];
      this.b[s] = b[i];
      if (this.three) this.c[s] = k;
      this.values[s] = values[i];
    }
  }
}
