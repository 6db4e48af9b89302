/**
 * Path alignment of two hosts: which prefix of host A corresponds to which prefix of host B.
 * Bharat et al. define mirrors by identical paths (§1); real copies often sit under another
 * prefix (`/docs/3.11/…` on one host, `/python/3.11/…` on another), or several releases sit side
 * by side on one host. Two paths correspond under the alignment (pA, pB) when they are pA + rest
 * and pB + rest for the same rest; an alignment is found from the path suffixes (cut at '/') the
 * two hosts share, counting for each (pA, pB) the suffixes shared under it, and kept only when
 * maximal: (pA + x/, pB + x/) adds nothing to (pA, pB), which holds every pair it holds. A page's
 * `.html` / `.htm` extension is not part of what is compared (`pathKey`).
 * The identity alignment ('' ↔ '') is the paper's case of common paths.
 */
import { intOption, rejectUnknown } from '../errors.js';

/** One correspondence of path prefixes between two hosts (paths without the leading '/'). */
export interface PathAlignment {
  /** Prefix on host A: '' (the whole host) or ending in '/'. */
  prefixA: string;
  /** Prefix on host B. */
  prefixB: string;
  /** Aligned path pairs: paths pA + rest on A whose pB + rest is on B. */
  common: number;
  /** Paths under prefixA on A, and under prefixB on B. */
  pathsA: number;
  pathsB: number;
}

/** Options of `alignPaths`. */
export interface AlignOptions {
  /** Alignments returned, most aligned pairs first (default 8). Cost: one comparison run each in the test. */
  maxAlignments?: number;
  /** A suffix found under more prefixes of host A than this (an `index.html` in every folder) is not used (default 16). */
  maxPrefixes?: number;
}

/** The defaults of {@link AlignOptions}. */
export const ALIGN_DEFAULTS = { maxAlignments: 8, maxPrefixes: 16 } as const;

/** Takes align options; returns them validated with defaults. */
export function alignParams(options: AlignOptions = {}): Required<AlignOptions> {
  return {
    maxAlignments: intOption('maxAlignments', options.maxAlignments, ALIGN_DEFAULTS.maxAlignments, 1, 10000),
    maxPrefixes: intOption('maxPrefixes', options.maxPrefixes, ALIGN_DEFAULTS.maxPrefixes, 1, 100000),
  };
}

/** Takes a path; returns the cut points after each '/' of its path part (not the query), the last one excluded when it ends the path. */
function cuts(path: string): number[] {
  const end = path.indexOf('?') < 0 ? path.length : path.indexOf('?');
  const out = [0];
  for (let i = path.indexOf('/'); i >= 0 && i < end; i = path.indexOf('/', i + 1)) if (i + 1 < path.length) out.push(i + 1);
  return out;
}

/** Takes a sorted list and a prefix; returns the range [lo, hi) of items starting with it. */
export function prefixRange(sorted: readonly string[], prefix: string): [number, number] {
  const lower = (x: string) => {
    let l = 0, h = sorted.length;
    while (l < h) {
      const m = (l + h) >>> 1;
      if (sorted[m] < x) l = m + 1;
      else h = m;
    }
    return l;
  };
  if (prefix === '') return [0, sorted.length];
  // Every string starting with the prefix sorts between it and the prefix with its last code unit raised.
  const next = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  return [lower(prefix), lower(next)];
}

/** Takes a sorted list and an item; returns its index, or −1. */
function indexOf(sorted: readonly string[], x: string): number {
  const [lo] = prefixRange(sorted, x);
  return lo < sorted.length && sorted[lo] === x ? lo : -1;
}

/**
 * Takes a path; returns the key it is aligned by: the path with its page's `.html`, `.htm` or
 * `.shtml` extension left out (before any query), so a copy saved under other names (`os.htm`
 * for `os.html`, or wget's `--adjust-extension` making `intro` into `intro.html`) is aligned with
 * its original. Other paths are their own key.
 */
export function pathKey(path: string): string {
  const q = path.indexOf('?');
  const end = q < 0 ? path.length : q;
  const m = /\.s?html?$/i.exec(path.slice(0, end));
  return m ? path.slice(0, end - m[0].length) + path.slice(end) : path;
}

/** Takes a list of paths; returns it sorted (code-unit order) and without repeats, or the list itself when it already is. */
export function sortedPaths(paths: readonly string[]): readonly string[] {
  for (let i = 1; i < paths.length; i++) if (!(paths[i - 1] < paths[i])) return [...new Set(paths)].sort();
  return paths;
}

/**
 * Takes two hosts' paths (sorted, distinct, no leading '/'); returns their maximal prefix
 * alignments, most aligned pairs first, then shorter prefixes, then in code-unit order. Cost:
 * O(|A|·d) to index A's suffixes (d the path depth) and O(|B|·d·maxPrefixes) to count.
 */
export function alignPaths(pathsA: readonly string[], pathsB: readonly string[], options: AlignOptions = {}): PathAlignment[] {
  rejectUnknown(options, ['maxAlignments', 'maxPrefixes'], 'alignPaths');
  const o = alignParams(options);
  const A = sortedPaths(pathsA), B = sortedPaths(pathsB);
  // Suffix → the prefixes of A it is found under (dropped past maxPrefixes: boilerplate names).
  const under = new Map<string, string[] | null>();
  for (const path of A) {
    const p = pathKey(path);
    for (const c of cuts(p)) {
      const suffix = p.slice(c);
      const list = under.get(suffix);
      if (list === null) continue;
      if (list === undefined) under.set(suffix, [p.slice(0, c)]);
      else if (list.length >= o.maxPrefixes) under.set(suffix, null);
      else list.push(p.slice(0, c));
    }
  }
  const counts = new Map<string, number>();
  for (const path of B) {
    const p = pathKey(path);
    for (const c of cuts(p)) {
      const list = under.get(p.slice(c));
      if (!list) continue;
      const prefixB = p.slice(0, c);
      for (const prefixA of list) {
        const key = `${prefixA}\n${prefixB}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
  }
  const parent = (prefix: string) => prefix.slice(0, prefix.lastIndexOf('/', prefix.length - 2) + 1);
  const lastSegment = (prefix: string) => prefix.slice(parent(prefix).length);
  const out: PathAlignment[] = [];
  for (const [key, common] of counts) {
    const [prefixA, prefixB] = key.split('\n');
    // Not maximal: the same last folder on both sides, and the alignment one level up exists.
    if (prefixA !== '' && prefixB !== '' && lastSegment(prefixA) === lastSegment(prefixB) && counts.has(`${parent(prefixA)}\n${parent(prefixB)}`)) continue;
    out.push({ prefixA, prefixB, common, pathsA: 0, pathsB: 0 });
  }
  out.sort((x, y) => y.common - x.common || x.prefixA.length + x.prefixB.length - (y.prefixA.length + y.prefixB.length) ||
    (x.prefixA < y.prefixA ? -1 : x.prefixA > y.prefixA ? 1 : x.prefixB < y.prefixB ? -1 : x.prefixB > y.prefixB ? 1 : 0));
  const top = out.slice(0, o.maxAlignments);
  for (const al of top) {
    // Reported at the collection roots: folders every aligned pair shares below the prefixes join them.
    const rests = alignedPairs(A, B, al).map(([i]) => A[i].slice(al.prefixA.length));
    const shared = sharedFolders(rests);
    al.prefixA += shared;
    al.prefixB += shared;
    // Counted again at the roots: the folder page of the new prefixes ('x/y/' itself) is a pair too.
    if (shared !== '') al.common = alignedPairs(A, B, al).length;
    const [a0, a1] = prefixRange(A, al.prefixA), [b0, b1] = prefixRange(B, al.prefixB);
    al.pathsA = a1 - a0;
    al.pathsB = b1 - b0;
  }
  return top;
}

/** Takes paths; returns the longest run of whole folders ('x/y/') that starts every one of them (a folder's own page, 'x/y/', included). */
function sharedFolders(rests: readonly string[]): string {
  if (rests.length === 0) return '';
  let end = 0;
  for (;;) {
    const next = rests[0].indexOf('/', end);
    if (next < 0) return rests[0].slice(0, end);
    const folder = rests[0].slice(0, next + 1);
    if (folder.includes('?') || !rests.every((r) => r.startsWith(folder))) return rests[0].slice(0, end);
    end = next + 1;
  }
}

/**
 * Takes two hosts' paths (sorted, distinct) and an alignment; returns the aligned pairs as
 * indexes into the two lists, in A's order.
 */
export function alignedPairs(pathsA: readonly string[], pathsB: readonly string[], alignment: Pick<PathAlignment, 'prefixA' | 'prefixB'>): Array<[number, number]> {
  const [lo, hi] = prefixRange(pathsA, alignment.prefixA);
  const out: Array<[number, number]> = [];
  // B's paths under the prefix by key, made when a path has no same-named counterpart (pathKey)
  let byKey: Map<string, number> | undefined;
  for (let i = lo; i < hi; i++) {
    const target = alignment.prefixB + pathsA[i].slice(alignment.prefixA.length);
    let j = indexOf(pathsB, target);
    if (j < 0) {
      if (!byKey) {
        byKey = new Map();
        const [b0, b1] = prefixRange(pathsB, alignment.prefixB);
        for (let k = b0; k < b1; k++) { const key = pathKey(pathsB[k]); if (!byKey.has(key)) byKey.set(key, k); }
      }
      j = byKey.get(pathKey(target)) ?? -1;
    }
    if (j >= 0) out.push([i, j]);
  }
  return out;
}

/** Takes a sorted list (of paths); returns k items at equal intervals, all of them when there are k or fewer (§4.1.1). */
export function samplePaths<T>(items: readonly T[], k: number): T[] {
  const n = items.length;
  if (n <= k) return [...items];
  return Array.from({ length: k }, (_, i) => items[Math.floor((i * n) / k)]);
}

/**
 * Takes n and k; returns the indexes 0..n−1 in the order they are compared: first k at equal
 * intervals, then 2k, 4k, … (each round only the indexes not taken before), so any prefix of the
 * order is spread over the whole list and a page that cannot be compared is replaced by another.
 */
export function spreadOrder(n: number, k: number): number[] {
  const taken = new Uint8Array(n);
  const out: number[] = [];
  for (let m = Math.max(1, k); out.length < n; m *= 2) {
    for (let i = 0; i < Math.min(m, n); i++) {
      const x = Math.floor((i * n) / Math.min(m, n));
      if (!taken[x]) {
        taken[x] = 1;
        out.push(x);
      }
    }
  }
  return out;
}
