import { intOption, numberOption, optionError, rejectUnknown, ResembleError } from '../errors.js';
import { normalizeUrl } from '../graph/url.js';
import type { ReplicatedCollections } from './find.js';
import { HOLE } from './matrix.js';
import type { NamedPageGraph } from './page-graph.js';
import { hostOfPrefix, SortedUrls } from './prefix.js';
import { groupBy } from './sort.js';
import { measurePair, type Relation } from './summary.js';

/** One thing a crawler can skip: a whole host, every URL under a prefix (crawled or not yet), or one URL. */
export interface AvoidEntry {
  kind: 'host' | 'prefix' | 'url';
  value: string;
  /** Crawled pages it covers, and their bytes. */
  pages: number;
  bytes: number;
  /** Entry page of the copy kept instead (of the first cluster the entry came from). */
  keep: string;
  /** Where the kept copy lives (its prefix). */
  keepPrefix?: string;
  /** Covered crawled pages that have a copy in a kept collection (the rest are `lost`: crawled only here). */
  redundant?: number;
  lost?: number;
  /** How the skipped copy relates to the kept one (prefix and host entries). */
  relation?: Relation;
}

/** How redundant the crawl was, before and after skipping (the paper: 48% similar pages, 13% after). */
export interface Redundancy {
  pages: number;
  /** Pages with at least one similar page (trivial cluster of two or more). */
  similarPages: number;
  /** Crawled pages the list skips. */
  skippedPages: number;
  /** Skipped pages that have no copy in a kept collection (absent from figures made before it was counted). */
  lostPages?: number;
  totalBytes: number;
  savedBytes: number;
  /** Pages left after skipping that still have a similar page left. */
  similarPagesAfter: number;
}

/** Which copy of each cluster a crawler keeps. */
export type KeepPolicy = 'inlinks' | 'first' | 'newest' | `host:${string}`;

/** Options of `avoidList`. */
export interface AvoidOptions {
  /** Page sizes in bytes per DocId, for the bytes saved. Default: none (bytes reported as 0). */
  pageBytes?: ArrayLike<number>;
  /** Also skip copies in noise clusters. Default false (the paper ignores them). */
  includeNoise?: boolean;
  /**
   * The copy kept per cluster: `inlinks` (default; most links from other hosts, the paper's natural
   * entry point, then the copy holding most pages), `first` (the copy whose first page came first in the crawl), `newest` (latest mean
   * fetch date of its pages, from `pageDates`), or `host:NAME` (the copy on that host). When the
   * policy cannot decide (no dates, no copy on that host) `inlinks` decides.
   */
  keep?: KeepPolicy;
  /** Fetch dates per DocId (ISO 8601 or anything `Date.parse` reads), for `keep: 'newest'`. */
  pageDates?: ArrayLike<string | undefined>;
  /**
   * A prefix (or host) rule needs at least this share of the crawled pages under it to have a copy
   * kept elsewhere; below it the skipped pages are listed one URL at a time. A rule also covers the
   * pages not crawled yet under it. Default 0.9.
   */
  minCoverage?: number;
  /** A collection becomes a prefix or host rule only when it holds at least this many pages; a smaller one (a few copied pages on a blog) is listed URL by URL. Default 10. */
  minRulePages?: number;
  /** Page resemblance (`SimilarPages.resemblance`), to give each prefix and host entry its relation to the kept copy. Default: none (no relation). */
  resemblance?: (a: number, b: number) => number;
}

const FORMAT = 'resemble-avoid-list';
const VERSION = 2;

/**
 * A crawler avoid-list (Section 5.1): hosts, URL prefixes and URLs a crawler can skip because a
 * copy is kept elsewhere. `shouldSkip(url)` answers for any URL, crawled or not: a URL under a
 * skipped prefix or on a skipped host is skipped. `save()` writes a versioned JSON document;
 * `AvoidList.load` reads it and also the JSON lines `resemble collections --avoid` writes.
 */
export class AvoidList {
  private readonly hostSet: Set<string>;
  private readonly prefixSet: Set<string>;
  private readonly urlSet: Set<string>;

  /** Takes the entries and the redundancy figures (entries of older versions, without the newer fields, are read as they are). */
  constructor(readonly entries: readonly AvoidEntry[], readonly redundancy: Redundancy) {
    this.hostSet = new Set(entries.filter((e) => e.kind === 'host').map((e) => e.value.toLowerCase()));
    this.prefixSet = new Set(entries.filter((e) => e.kind === 'prefix').map((e) => normalizeUrl(e.value) ?? e.value));
    this.urlSet = new Set(entries.filter((e) => e.kind === 'url').map((e) => normalizeUrl(e.value) ?? e.value));
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

  /** Returns the list as a versioned JSON document (`{"format": "resemble-avoid-list", "version": 2, "entries", "redundancy"}`). */
  save(): string {
    return JSON.stringify({ format: FORMAT, version: VERSION, entries: this.entries, redundancy: this.redundancy }) + '\n';
  }

  /**
   * Takes a saved list: the JSON document of `save()` (version 2), or the JSON lines of
   * `resemble collections --avoid` (one entry per line, as every version wrote them); returns the
   * list. Throws E_FORMAT naming the line or field that cannot be read.
   */
  static load(text: string): AvoidList {
    const trimmed = text.trim();
    const noRedundancy: Redundancy = { pages: 0, similarPages: 0, skippedPages: 0, lostPages: 0, totalBytes: 0, savedBytes: 0, similarPagesAfter: 0 };
    if (trimmed === '') return new AvoidList([], noRedundancy);
    let whole: unknown;
    try { whole = JSON.parse(trimmed); } catch { whole = undefined; }
    if (whole && typeof whole === 'object' && !Array.isArray(whole) && (whole as { format?: unknown }).format !== undefined) {
      const doc = whole as { format: unknown; version: unknown; entries: unknown; redundancy: unknown };
      if (doc.format !== FORMAT) throw new ResembleError('E_FORMAT', `expected an avoid-list (format ${FORMAT}), got format ${JSON.stringify(doc.format)}`);
      if (doc.version !== VERSION) throw new ResembleError('E_FORMAT', `avoid-list version ${JSON.stringify(doc.version)} is not known (this version reads ${VERSION} and the JSON lines of --avoid)`);
      if (!Array.isArray(doc.entries)) throw new ResembleError('E_FORMAT', 'avoid-list: entries is not an array');
      const entries = doc.entries.map((e, i) => checkEntry(e, `entry ${i + 1}`));
      return new AvoidList(entries, { ...noRedundancy, ...(doc.redundancy && typeof doc.redundancy === 'object' ? doc.redundancy as Partial<Redundancy> : {}) });
    }
    const entries: AvoidEntry[] = [];
    trimmed.split(/\r?\n/).forEach((line, i) => {
      if (line.trim() === '') return;
      let e: unknown;
      try { e = JSON.parse(line); } catch { throw new ResembleError('E_FORMAT', `avoid-list line ${i + 1}: not JSON`, { line: i + 1 }); }
      entries.push(checkEntry(e, `line ${i + 1}`));
    });
    return new AvoidList(entries, noRedundancy);
  }
}

function checkEntry(e: unknown, where: string): AvoidEntry {
  const x = e as Partial<AvoidEntry> | null;
  if (!x || typeof x !== 'object' || (x.kind !== 'host' && x.kind !== 'prefix' && x.kind !== 'url') || typeof x.value !== 'string') {
    throw new ResembleError('E_FORMAT', `avoid-list ${where}: expected {"kind": "host"|"prefix"|"url", "value": string, ...}`, { where });
  }
  return { pages: 0, bytes: 0, keep: '', ...x } as AvoidEntry;
}

/** Checks `AvoidOptions`; returns the keep policy and the coverage with defaults filled in. */
function avoidOptions(options: AvoidOptions): { keep: KeepPolicy; minCoverage: number; minRulePages: number } {
  rejectUnknown(options, ['pageBytes', 'includeNoise', 'keep', 'pageDates', 'minCoverage', 'minRulePages', 'resemblance'], 'avoidList');
  const keep = options.keep ?? 'inlinks';
  if (typeof keep !== 'string' || !(['inlinks', 'first', 'newest'].includes(keep) || (keep.startsWith('host:') && keep.length > 5))) {
    throw optionError('keep', 'inlinks, first, newest or host:NAME', keep);
  }
  if (keep === 'newest' && options.pageDates === undefined) throw optionError('pageDates', 'fetch dates per page for keep: newest', undefined);
  return { keep, minCoverage: numberOption('minCoverage', options.minCoverage, 0.9, 0, 1), minRulePages: intOption('minRulePages', options.minRulePages, 10, 1, 2 ** 31) };
}

/** Takes a cluster's rows and the policy; returns the row kept. */
function keptRow(found: ReplicatedCollections, k: number, graph: NamedPageGraph, keep: KeepPolicy, dates?: ArrayLike<string | undefined>): number {
  const c = found.clusters[k];
  // Most links from other hosts; then the most complete copy; then the first.
  let byLinks = 0;
  for (let x = 1; x < c.cardinality; x++) {
    if (c.externalInLinks[x] > c.externalInLinks[byLinks] || (c.externalInLinks[x] === c.externalInLinks[byLinks] && c.held[x] > c.held[byLinks])) byLinks = x;
  }
  if (keep === 'inlinks') return byLinks;
  if (keep === 'first') {
    let best = 0, bestFirst = Infinity;
    for (let x = 0; x < c.cardinality; x++) {
      let first = Infinity;
      for (let col = 0; col < c.size; col++) { const p = c.pages[x * c.size + col]; if (p !== HOLE && p < first) first = p; }
      if (first < bestFirst) { bestFirst = first; best = x; }
    }
    return best;
  }
  if (keep === 'newest') {
    let best = -1, bestTime = -Infinity;
    for (let x = 0; x < c.cardinality; x++) {
      let sum = 0, count = 0;
      for (let col = 0; col < c.size; col++) {
        const p = c.pages[x * c.size + col];
        const t = p === HOLE ? NaN : Date.parse(dates![p] ?? '');
        if (Number.isFinite(t)) { sum += t; count++; }
      }
      if (count > 0 && sum / count > bestTime) { bestTime = sum / count; best = x; }
    }
    return best >= 0 ? best : byLinks;
  }
  const host = keep.slice(5).toLowerCase();
  for (let x = 0; x < c.cardinality; x++) if (graph.hosts[graph.hostOf[c.roots[x]]] === host) return x;
  return byLinks;
}

/**
 * Takes the clusters and the named graph; returns the avoid-list with the redundancy figures. Per
 * cluster one copy is kept (see `keep`); every other copy's pages that have a copy in the kept one
 * are redundant. A copy of `minRulePages` pages or more becomes a prefix rule when at least
 * `minCoverage` of the crawled pages under its prefix are redundant and no kept page lies there, so that the URLs not crawled yet under it
 * are skipped too; a host where every crawled page is under such rules becomes a host rule; other
 * redundant pages are listed one URL at a time. A page that some cluster keeps is never skipped.
 */
export function avoidList(found: ReplicatedCollections, graph: NamedPageGraph, options: AvoidOptions = {}): AvoidList {
  const { keep, minCoverage, minRulePages } = avoidOptions(options);
  const n = graph.size;
  const bytesOf = (p: number) => (options.pageBytes ? options.pageBytes[p] : 0);
  const redundant = new Uint8Array(n), kept = new Uint8Array(n);
  type Candidate = { cluster: number; row: number; best: number; prefix: string; pages: number[]; keepRoot: string; keepPrefix: string };
  const candidates: Candidate[] = [];
  found.clusters.forEach((c, k) => {
    if (c.noise && !options.includeNoise) return;
    const best = keptRow(found, k, graph, keep, options.pageDates);
    for (let col = 0; col < c.size; col++) { const p = c.pages[best * c.size + col]; if (p !== HOLE) kept[p] = 1; }
    for (let x = 0; x < c.cardinality; x++) {
      if (x === best) continue;
      const pages: number[] = [];
      for (let col = 0; col < c.size; col++) {
        const p = c.pages[x * c.size + col];
        if (p !== HOLE && c.pages[best * c.size + col] !== HOLE) { redundant[p] = 1; pages.push(p); }
      }
      if (pages.length) candidates.push({ cluster: k, row: x, best, prefix: c.prefixes[x], pages, keepRoot: graph.urls[c.roots[best]], keepPrefix: c.prefixes[best] });
    }
  });
  for (let p = 0; p < n; p++) if (kept[p]) redundant[p] = 0;

  const sorted = new SortedUrls(graph.urls);
  const redundantBefore = new Uint32Array(n + 1), keptBefore = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) {
    redundantBefore[i + 1] = redundantBefore[i] + redundant[sorted.order[i]];
    keptBefore[i + 1] = keptBefore[i] + kept[sorted.order[i]];
  }
  const skipped = new Uint8Array(n);
  const entries = new Map<string, AvoidEntry>();
  const prefixRule = new Map<string, Candidate>();
  for (const cand of candidates) {
    const root = cand.prefix.indexOf('/', cand.prefix.indexOf('://') + 3) + 1;
    if (cand.prefix !== '' && root > 0 && found.clusters[cand.cluster].held[cand.row] >= minRulePages) {
      const { lo, hi } = sorted.range(cand.prefix);
      const red = redundantBefore[hi] - redundantBefore[lo];
      if (keptBefore[hi] === keptBefore[lo] && red >= minCoverage * (hi - lo)) { if (!prefixRule.has(cand.prefix)) prefixRule.set(cand.prefix, cand); continue; }
    }
    for (const p of cand.pages) {
      if (!redundant[p]) continue;
      skipped[p] = 1;
      entries.set(`url ${graph.urls[p]}`, { kind: 'url', value: graph.urls[p], pages: 1, bytes: bytesOf(p), keep: cand.keepRoot, keepPrefix: cand.keepPrefix, redundant: 1, lost: 0 });
    }
  }
  const resemblance = options.resemblance;
  const relationOf = (cand: Candidate) => (resemblance ? measurePair(found.clusters[cand.cluster], cand.row, cand.best, resemblance).relation : undefined);
  // Hosts whose every crawled page lies under a prefix rule (and none is kept) become host rules.
  const hostOfPage = graph.hostOf, byHost = groupBy(hostOfPage, graph.hosts.length);
  const underRule = new Uint8Array(n);
  for (const prefix of prefixRule.keys()) { const { lo, hi } = sorted.range(prefix); for (let i = lo; i < hi; i++) underRule[sorted.order[i]] = 1; }
  const hostRule = new Set<number>();
  for (let h = 0; h < graph.hosts.length; h++) {
    const pages = byHost.items.subarray(byHost.offsets[h], byHost.offsets[h + 1]);
    if (pages.length && pages.every((p) => underRule[p] && !kept[p])) hostRule.add(h);
  }
  for (const h of hostRule) {
    const pages = Array.from(byHost.items.subarray(byHost.offsets[h], byHost.offsets[h + 1]));
    const first = [...prefixRule.entries()].find(([prefix]) => hostOfPrefix(prefix) === graph.hosts[h])!;
    let bytes = 0, red = 0;
    for (const p of pages) { bytes += bytesOf(p); red += redundant[p]; skipped[p] = 1; }
    entries.set(`host ${graph.hosts[h]}`, { kind: 'host', value: graph.hosts[h], pages: pages.length, bytes, keep: first[1].keepRoot, keepPrefix: first[1].keepPrefix, redundant: red, lost: pages.length - red, relation: relationOf(first[1]) });
  }
  for (const [prefix, cand] of prefixRule) {
    const { lo, hi } = sorted.range(prefix);
    let bytes = 0, red = 0;
    for (let i = lo; i < hi; i++) { const p = sorted.order[i]; bytes += bytesOf(p); red += redundant[p]; skipped[p] = 1; }
    if (hostRule.has(graph.hostOf[cand.pages[0]])) continue;
    entries.set(`prefix ${prefix}`, { kind: 'prefix', value: prefix, pages: hi - lo, bytes, keep: cand.keepRoot, keepPrefix: cand.keepPrefix, redundant: red, lost: hi - lo - red, relation: relationOf(cand) });
  }
  // Entries covered by a host or a broader prefix are left out.
  const all = [...entries.values()];
  const prefixes = new Set(all.filter((e) => e.kind === 'prefix').map((e) => e.value));
  const hosts = new Set(all.filter((e) => e.kind === 'host').map((e) => e.value));
  const covered = (e: AvoidEntry) => {
    if (e.kind === 'host') return false;
    if (hosts.has(hostOfPrefix(e.value))) return true;
    const from = e.value.indexOf('/', e.value.indexOf('://') + 3);
    for (let i = from; i >= 0 && i < e.value.length - 1; i = e.value.indexOf('/', i + 1)) if (prefixes.has(e.value.slice(0, i + 1))) return true;
    return false;
  };
  const rank = { host: 0, prefix: 1, url: 2 } as const;
  const final = all.filter((e) => !covered(e)).sort((x, y) => rank[x.kind] - rank[y.kind] || (x.value < y.value ? -1 : x.value > y.value ? 1 : 0));

  const { rid, size } = found.trivial;
  const left = new Uint32Array(found.trivial.count);
  let similarPages = 0, skippedPages = 0, lostPages = 0, totalBytes = 0, savedBytes = 0;
  for (let p = 0; p < n; p++) {
    totalBytes += bytesOf(p);
    if (size[rid[p]] >= 2) similarPages++;
    if (skipped[p]) { skippedPages++; savedBytes += bytesOf(p); if (!redundant[p]) lostPages++; } else left[rid[p]]++;
  }
  let similarPagesAfter = 0;
  for (let p = 0; p < n; p++) if (!skipped[p] && left[rid[p]] >= 2) similarPagesAfter++;
  return new AvoidList(final, { pages: n, similarPages, skippedPages, lostPages, totalBytes, savedBytes, similarPagesAfter });
}
