/**
 * Exact shingle resemblance over full shingle sets, computed with the slow reference tokenizer
 * (src/reference/tokens.ts), independently of the WebAssembly kernels and of any sketch: every
 * pair of pages with word-8-shingle Jaccard ≥ a threshold, found with an inverted index and prefix
 * filtering (exact: a pair over the threshold must share one of the rarest shingles of each side),
 * verified by merging the two full sets. Shingles are the w-token windows themselves (interned
 * token tuples), not fingerprints, so there are no hash collisions. A document with fewer than w
 * tokens has one shingle of all its tokens, as in docs/FORMATS.md.
 */
import { tokensRef } from '../../src/reference/tokens.js';

/** A page's exact shingle sets (ids sorted ascending) and sizes. */
export interface ShingleSets {
  tokens: number;
  w8: Int32Array;
  w5: Int32Array;
}

/** Interns strings to dense ids; sharded, as one Map holds at most 2^24 keys. */
class Interner {
  private shards: Array<Map<string, number>> = Array.from({ length: 64 }, () => new Map());
  size = 0;
  id(key: string): number {
    let h = 0;
    for (let i = 0; i < key.length; i += 3) h = (h * 31 + key.charCodeAt(i)) | 0;
    const shard = this.shards[h & 63];
    let v = shard.get(key);
    if (v === undefined) shard.set(key, (v = this.size++));
    return v;
  }
}

/** Shingles texts into exact sets, interning tokens and shingles across all texts given to one instance. */
export class ShingleIndex {
  private tokens = new Interner();
  private s8 = new Interner();
  private s5 = new Interner();

  /** Takes a decoded HTML text; returns its sets of word 8- and 5-shingles. */
  sets(text: string): ShingleSets {
    const ids = tokensRef(text).map((t) => this.tokens.id(t).toString(36));
    return { tokens: ids.length, w8: this.shingles(ids, 8, this.s8), w5: this.shingles(ids, 5, this.s5) };
  }

  private shingles(ids: string[], w: number, interner: Interner): Int32Array {
    const out = new Set<number>();
    if (ids.length < w) out.add(interner.id(ids.join(',')));
    else for (let i = 0; i + w <= ids.length; i++) out.add(interner.id(ids.slice(i, i + w).join(',')));
    return Int32Array.from(out).sort();
  }

  /** Distinct 8-shingles seen so far. */
  get distinct8(): number {
    return this.s8.size;
  }
}

/** Size of the intersection of two ascending id arrays. */
export function intersection(a: Int32Array, b: Int32Array): number {
  let i = 0, j = 0, n = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) { n++; i++; j++; } else if (a[i] < b[j]) i++; else j++;
  }
  return n;
}

/** A pair of documents (indexes into the sets given) with its exact measures. */
export interface SimilarPair {
  a: number;
  b: number;
  /** |A ∩ B| / |A ∪ B| on word 8-shingles. */
  j8: number;
  /** |A ∩ B| / |A| and |A ∩ B| / |B| on word 8-shingles. */
  aInB: number;
  bInA: number;
  /** Jaccard on word 5-shingles. */
  j5: number;
}

/**
 * Takes the shingle sets of distinct documents and a threshold t; returns every pair with 8-shingle
 * Jaccard ≥ t (a < b). Prefix filtering: with shingles ranked rarest first, two sets with
 * J ≥ t share a shingle among the first |X| − ⌈t·|X|⌉ + 1 of each; sizes must be within t of each other.
 */
export function similarPairs(docs: ShingleSets[], t: number): SimilarPair[] {
  const df = new Map<number, number>();
  for (const d of docs) for (const s of d.w8) df.set(s, (df.get(s) ?? 0) + 1);
  const order = [...df.keys()].sort((x, y) => df.get(x)! - df.get(y)! || x - y);
  const rank = new Map<number, number>();
  order.forEach((s, i) => rank.set(s, i));
  const ranked = docs.map((d) => Int32Array.from(d.w8, (s) => rank.get(s)!).sort());
  const bySize = docs.map((_, i) => i).sort((x, y) => ranked[x].length - ranked[y].length || x - y);
  const index = new Map<number, number[]>();
  const out: SimilarPair[] = [];
  const seen = new Int32Array(docs.length).fill(-1);
  for (const x of bySize) {
    const rx = ranked[x], n = rx.length;
    const prefix = n - Math.ceil(t * n - 1e-9) + 1;
    for (let k = 0; k < prefix && k < n; k++) {
      const list = index.get(rx[k]);
      if (list) {
        for (const y of list) {
          if (seen[y] === x) continue;
          seen[y] = x;
          const ry = ranked[y];
          if (ry.length < t * n - 1e-9) continue;
          const inter = intersection(rx, ry);
          const j = inter / (n + ry.length - inter);
          if (j + 1e-12 < t) continue;
          const [a, b] = x < y ? [x, y] : [y, x];
          const i5 = intersection(docs[a].w5, docs[b].w5);
          out.push({
            a, b, j8: j, aInB: inter / ranked[a].length, bInA: inter / ranked[b].length,
            j5: i5 / (docs[a].w5.length + docs[b].w5.length - i5),
          });
        }
      }
    }
    for (let k = 0; k < prefix && k < n; k++) {
      let list = index.get(rx[k]);
      if (!list) index.set(rx[k], (list = []));
      list.push(x);
    }
  }
  return out.sort((p, q) => p.a - q.a || p.b - q.b);
}

/** Takes n and pairs (i, j) that are linked; returns the connected components of two or more, each sorted, ordered by first member. */
export function components(n: number, links: Iterable<[number, number]>): number[][] {
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) { parent[x] = parent[parent[x]]; x = parent[x]; }
    return x;
  };
  for (const [a, b] of links) {
    const ra = find(a), rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }
  const groups = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const r = find(i);
    let g = groups.get(r);
    if (!g) groups.set(r, (g = []));
    g.push(i);
  }
  return [...groups.values()].filter((g) => g.length > 1).sort((a, b) => a[0] - b[0]);
}
