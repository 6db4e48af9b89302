import { normalizeUrl } from '../graph/url.js';
import type { ReplicatedCollections } from './find.js';
import type { NamedPageGraph } from './page-graph.js';
import { groupBy } from './sort.js';

/** One thing a crawler can skip: a whole host, every URL under a prefix, or one URL. */
export interface AvoidEntry {
  kind: 'host' | 'prefix' | 'url';
  value: string;
  /** Crawled pages it covers, and their bytes. */
  pages: number;
  bytes: number;
  /** Root URL of the copy kept instead (of the first cluster the entry came from). */
  keep: string;
}

/** How redundant the crawl was, before and after skipping (the paper: 48% similar pages, 13% after). */
export interface Redundancy {
  pages: number;
  /** Pages with at least one similar page (trivial cluster of two or more). */
  similarPages: number;
  skippedPages: number;
  totalBytes: number;
  savedBytes: number;
  /** Pages left after skipping that still have a similar page left. */
  similarPagesAfter: number;
}

/** Options of `avoidList`. */
export interface AvoidOptions {
  /** Page sizes in bytes per DocId, for the bytes saved. Default: none (bytes reported as 0). */
  pageBytes?: ArrayLike<number>;
  /** Also skip copies in noise clusters. Default false (the paper ignores them). */
  includeNoise?: boolean;
}

/**
 * A crawler avoid-list (Section 5.1): for each similar cluster one copy is kept (the collection with
 * most in-links from other hosts, then the first), the pages of the others are skipped, except
 * pages that a kept collection shares (partial mirrors). Skipped pages are written as hosts when a
 * host holds nothing else, as URL prefixes when every crawled page under the prefix is skipped,
 * and as single URLs otherwise, so the list never covers a crawled page that was not redundant.
 */
export class AvoidList {
  private readonly hostSet: Set<string>;
  private readonly prefixSet: Set<string>;
  private readonly urlSet: Set<string>;

  constructor(readonly entries: readonly AvoidEntry[], readonly redundancy: Redundancy) {
    this.hostSet = new Set(entries.filter((e) => e.kind === 'host').map((e) => e.value));
    this.prefixSet = new Set(entries.filter((e) => e.kind === 'prefix').map((e) => e.value));
    this.urlSet = new Set(entries.filter((e) => e.kind === 'url').map((e) => e.value));
  }

  /** Takes a URL (any spelling); returns true when the list says a crawler can skip it. */
  shouldSkip(url: string): boolean {
    const norm = normalizeUrl(url);
    if (norm === undefined) return false;
    if (this.urlSet.has(norm)) return true;
    const start = norm.indexOf('://');
    if (start < 0) return false;
    const pathAt = norm.indexOf('/', start + 3);
    const host = norm.slice(start + 3, pathAt < 0 ? norm.length : pathAt);
    if (this.hostSet.has(host)) return true;
    if (pathAt < 0) return false;
    const end = norm.search(/[?#]/);
    const stop = end < 0 ? norm.length : end;
    for (let i = pathAt; i < stop; i++) if (norm.charCodeAt(i) === 47 && this.prefixSet.has(norm.slice(0, i + 1))) return true;
    return false;
  }
}

/** Directory part of a URL: up to and including the last '/' of its path. */
function directoryOf(url: string): string {
  const q = url.search(/[?#]/);
  const path = q < 0 ? url : url.slice(0, q);
  return path.slice(0, path.lastIndexOf('/') + 1);
}

/** Takes the clusters and the named graph; returns the avoid-list with the redundancy figures. */
export function avoidList(found: ReplicatedCollections, graph: NamedPageGraph, options: AvoidOptions = {}): AvoidList {
  const n = graph.size;
  const bytesOf = (p: number) => (options.pageBytes ? options.pageBytes[p] : 0);
  const skipped = new Uint8Array(n), kept = new Uint8Array(n);
  const keepUrl = new Map<number, string>();
  const collectionOf = new Int32Array(n).fill(-1);
  let collections = 0;
  const collectionKeep: string[] = [];
  for (const c of found.clusters) {
    if (c.noise && !options.includeNoise) continue;
    let best = 0;
    for (let x = 1; x < c.cardinality; x++) if (c.externalInLinks[x] > c.externalInLinks[best]) best = x;
    const keepRoot = graph.urls[c.pages[best * c.size]];
    for (let x = 0; x < c.cardinality; x++) {
      const id = collections++;
      collectionKeep.push(keepRoot);
      for (let col = 0; col < c.size; col++) {
        const p = c.pages[x * c.size + col];
        if (x === best) kept[p] = 1;
        else { skipped[p] = 1; if (collectionOf[p] < 0) collectionOf[p] = id; keepUrl.set(p, keepRoot); }
      }
    }
  }
  for (let p = 0; p < n; p++) if (kept[p]) skipped[p] = 0;

  const hostPages = new Uint32Array(graph.hosts.length), hostSkipped = new Uint32Array(graph.hosts.length);
  for (let p = 0; p < n; p++) { hostPages[graph.hostOf[p]]++; if (skipped[p]) hostSkipped[graph.hostOf[p]]++; }
  // Crawled URLs in sorted order with a running count of skipped ones: a prefix covers a contiguous range.
  const sorted = Array.from({ length: n }, (_, i) => i).sort((x, y) => (graph.urls[x] < graph.urls[y] ? -1 : graph.urls[x] > graph.urls[y] ? 1 : x - y));
  const sortedUrls = sorted.map((p) => graph.urls[p]);
  const skippedBefore = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) skippedBefore[i + 1] = skippedBefore[i] + skipped[sorted[i]];
  const lowerBound = (s: string) => { let l = 0, r = n; while (l < r) { const m = (l + r) >>> 1; if (sortedUrls[m] < s) l = m + 1; else r = m; } return l; };
  /** The crawled URLs starting with `prefix` (a contiguous range of the sorted list) and how many are skipped. */
  const coverage = (prefix: string) => {
    const lo = lowerBound(prefix);
    let l = lo, r = n;
    while (l < r) { const m = (l + r) >>> 1; if (sortedUrls[m].startsWith(prefix)) l = m + 1; else r = m; }
    return { total: l - lo, skipped: skippedBefore[l] - skippedBefore[lo], lo, hi: l };
  };

  const entries = new Map<string, AvoidEntry>();
  const add = (kind: AvoidEntry['kind'], value: string, pages: number[], keep: string) => {
    const key = `${kind} ${value}`;
    const e = entries.get(key);
    if (e) return;
    let bytes = 0;
    for (const p of pages) bytes += bytesOf(p);
    entries.set(key, { kind, value, pages: pages.length, bytes, keep });
  };
  // Skipped pages grouped by (collection, host).
  const groups = new Map<string, number[]>();
  for (let p = 0; p < n; p++) {
    if (!skipped[p]) continue;
    const h = graph.hostOf[p];
    if (hostSkipped[h] === hostPages[h]) continue;
    const key = `${collectionOf[p]} ${h}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(p);
  }
  const byHost = groupBy(graph.hostOf, graph.hosts.length);
  for (let h = 0; h < graph.hosts.length; h++) {
    if (hostPages[h] === 0 || hostSkipped[h] !== hostPages[h]) continue;
    const pages = Array.from(byHost.items.subarray(byHost.offsets[h], byHost.offsets[h + 1]));
    add('host', graph.hosts[h], pages, keepUrl.get(pages[0]) ?? '');
  }
  for (const [key, pages] of groups) {
    const keep = collectionKeep[Number(key.split(' ')[0])] ?? '';
    let prefix = directoryOf(graph.urls[pages[0]]);
    for (const p of pages) {
      const dir = directoryOf(graph.urls[p]);
      let k = 0;
      while (k < prefix.length && k < dir.length && prefix.charCodeAt(k) === dir.charCodeAt(k)) k++;
      prefix = prefix.slice(0, prefix.lastIndexOf('/', k - 1) + 1);
    }
    const cov = prefix.includes('://') && prefix.indexOf('/', prefix.indexOf('://') + 3) >= 0 ? coverage(prefix) : undefined;
    if (cov && cov.total === cov.skipped) add('prefix', prefix, sorted.slice(cov.lo, cov.hi), keep);
    else for (const p of pages) add('url', graph.urls[p], [p], keep);
  }
  // Drop entries covered by a broader prefix (found by walking their own directory prefixes).
  const all = [...entries.values()];
  const prefixes = new Set(all.filter((e) => e.kind === 'prefix').map((e) => e.value));
  const covered = (value: string) => {
    const from = value.indexOf('/', value.indexOf('://') + 3);
    for (let i = from; i >= 0 && i < value.length - 1; i = value.indexOf('/', i + 1)) if (prefixes.has(value.slice(0, i + 1))) return true;
    return false;
  };
  const final = all.filter((e) => e.kind === 'host' || !covered(e.value));
  final.sort((x, y) => (x.kind === y.kind ? (x.value < y.value ? -1 : x.value > y.value ? 1 : 0) : x.kind === 'host' ? -1 : y.kind === 'host' ? 1 : x.kind === 'prefix' ? -1 : 1));

  const { rid, size } = found.trivial;
  const left = new Uint32Array(found.trivial.count);
  let similarPages = 0, skippedPages = 0, totalBytes = 0, savedBytes = 0;
  for (let p = 0; p < n; p++) {
    totalBytes += bytesOf(p);
    if (size[rid[p]] >= 2) similarPages++;
    if (skipped[p]) { skippedPages++; savedBytes += bytesOf(p); } else left[rid[p]]++;
  }
  let similarPagesAfter = 0;
  for (let p = 0; p < n; p++) if (!skipped[p] && left[rid[p]] >= 2) similarPagesAfter++;
  return new AvoidList(final, { pages: n, similarPages, skippedPages, totalBytes, savedBytes, similarPagesAfter });
}
