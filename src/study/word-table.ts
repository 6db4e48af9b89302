/**
 * An open-addressing hash table from keys of three u32 words to an int32 value, in typed arrays:
 * the hash tables of the subcollection algorithm hold fingerprints (two words) plus a copy number
 * or a count, and a JavaScript Map would box each 64-bit key.
 */
export class WordTable {
  private readonly mask: number;
  private readonly a: Uint32Array;
  private readonly b: Uint32Array;
  private readonly c: Uint32Array;
  private readonly used: Uint8Array;
  /** The value of each slot (`fill` until set). */
  readonly values: Int32Array;
  /** Keys stored. */
  size = 0;

  /** Takes the most keys it will hold and the initial value of a new slot. */
  constructor(capacity: number, fill = 0) {
    // Load factor at most 1/2: linear probing stays short.
    let slots = 16;
    while (slots < 2 * capacity) slots *= 2;
    this.mask = slots - 1;
    this.a = new Uint32Array(slots);
    this.b = new Uint32Array(slots);
    this.c = new Uint32Array(slots);
    this.used = new Uint8Array(slots);
    this.values = new Int32Array(slots).fill(fill);
  }

  private start(a: number, b: number, c: number): number {
    let h = Math.imul(a ^ Math.imul(b, 0x9e3779b1) ^ Math.imul(c, 0x85ebca6b), 0x27d4eb2f);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    return (h ^ (h >>> 13)) & this.mask;
  }

  /** Takes a key; returns its slot, adding the key when absent (the table must not be full). */
  slot(a: number, b: number, c: number): number {
    a >>>= 0; b >>>= 0; c >>>= 0;
    let s = this.start(a, b, c);
    while (this.used[s]) {
      if (this.a[s] === a && this.b[s] === b && this.c[s] === c) return s;
      s = (s + 1) & this.mask;
    }
    this.used[s] = 1;
    this.a[s] = a;
    this.b[s] = b;
    this.c[s] = c;
    this.size++;
    return s;
  }

  /** Takes a key; returns its slot, or −1 when absent. */
  find(a: number, b: number, c: number): number {
    a >>>= 0; b >>>= 0; c >>>= 0;
    let s = this.start(a, b, c);
    while (this.used[s]) {
      if (this.a[s] === a && this.b[s] === b && this.c[s] === c) return s;
      s = (s + 1) & this.mask;
    }
    return -1;
  }
}
