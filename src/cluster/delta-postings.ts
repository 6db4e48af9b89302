// The in-memory tier of the index's postings: the documents added since the sorted postings were
// last merged, in a hash table from sketch value to a chain of documents. Adding a document costs
// one probe per value and a lookup one probe, whatever the size; the index merges this tier into
// the sorted postings once it holds a fixed fraction of them (see ResembleIndex), so the merge
// cost per document stays constant too (the LSM idea: a small mutable level over a sorted one).
import { HI as HI_WORD, LO as LO_WORD } from '../sketch/columns.js';
import { grow } from './postings.js';

// Word positions as module constants: imported bindings are slower to read in hot loops.
const HI = HI_WORD, LO = LO_WORD;

/** Sketch value → documents, for documents added one sweep at a time; typed arrays, no object per key. */
export class DeltaPostings {
  /** Per slot: the key's words, the newest entry of its chain (-1 for an empty slot) and the chain length. */
  keyHi = new Uint32Array(16);
  keyLo = new Uint32Array(16);
  head = new Int32Array(16).fill(-1);
  count = new Uint32Array(16);
  /** Per entry: its document and the next (older) entry of the same key, -1 at the end. */
  doc = new Uint32Array(64);
  next = new Int32Array(64);
  /** Entries (postings) held. */
  entries = 0;
  private keys = 0;
  private mask = 15;

  /** The slot of key hi:lo, or -1 when absent. */
  find(hi: number, lo: number): number {
    const i = this.slot(hi, lo);
    return this.head[i] < 0 ? -1 : i;
  }

  private slot(hi: number, lo: number): number {
    // MOD_{2^i} values have zero low bits: mix both words before taking the slot.
    let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b);
    h ^= h >>> 15;
    let i = h & this.mask;
    const head = this.head, kh = this.keyHi, kl = this.keyLo, mask = this.mask;
    while (head[i] >= 0 && (kh[i] !== hi || kl[i] !== lo)) i = (i + 1) & mask;
    return i;
  }

  /** Adds document `doc` under each value of row [start, end) of `w` (a `words` view). */
  add(doc: number, w: Uint32Array, start: number, end: number): void {
    const need = this.entries + end - start;
    if (need > this.doc.length) { this.doc = grow(this.doc, need); this.next = grow(this.next, need); }
    for (let j = start; j < end; j++) {
      if ((this.keys + 1) * 2 > this.mask + 1) this.rehash();
      const hi = w[2 * j + HI], lo = w[2 * j + LO];
      const i = this.slot(hi, lo);
      const e = this.entries++;
      this.doc[e] = doc;
      if (this.head[i] < 0) { this.keyHi[i] = hi; this.keyLo[i] = lo; this.keys++; this.next[e] = -1; this.count[i] = 1; }
      else { this.next[e] = this.head[i]; this.count[i]++; }
      this.head[i] = e;
    }
  }

  /** Empties the table (its arrays are kept for the next round). */
  clear(): void {
    this.head.fill(-1);
    this.entries = 0;
    this.keys = 0;
  }

  /** Bytes held by the arrays. */
  get byteLength(): number {
    return this.keyHi.byteLength * 4 + this.doc.byteLength * 2;
  }

  private rehash(): void {
    const { keyHi, keyLo, head, count } = this;
    const cap = (this.mask + 1) * 2;
    this.keyHi = new Uint32Array(cap); this.keyLo = new Uint32Array(cap);
    this.head = new Int32Array(cap).fill(-1); this.count = new Uint32Array(cap);
    this.mask = cap - 1;
    for (let i = 0; i < head.length; i++) {
      if (head[i] < 0) continue;
      const j = this.slot(keyHi[i], keyLo[i]);
      this.keyHi[j] = keyHi[i]; this.keyLo[j] = keyLo[i]; this.head[j] = head[i]; this.count[j] = count[i];
    }
  }
}
