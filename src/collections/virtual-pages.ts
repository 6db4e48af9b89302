import { normalizeParsed, parseUrl } from '../graph/url.js';
import type { NamedPageGraph, PageGraph } from './page-graph.js';
import { commonDirectory, directoryOf } from './prefix.js';
import { trivialFromLabels, type TrivialClusters } from './trivial.js';

/** Links to URLs outside the crawl, per page (the shape `WebGraph` keeps them in). */
export interface ExternalLinks {
  /** Page i's are `externalUrls[externalOffsets[i] .. externalOffsets[i + 1])`. */
  readonly externalOffsets: Uint32Array;
  readonly externalUrls: readonly string[];
}

/**
 * Pages a copy links to that the crawl does not hold (a partial mirror's missing pages, a page the
 * crawler never reached). Virtual page v stands for URL `urls[v]` on host `hostOf[v]`; it is a copy
 * of crawled page `like[v]` when another copy holds that page (-1 when none does), and of the other
 * virtual pages of its `group` (the same missing page in other copies); the crawled pages in
 * `from[fromOffsets[v] .. fromOffsets[v + 1])` link to it.
 */
export interface VirtualPages {
  readonly count: number;
  readonly urls: readonly string[];
  readonly hostOf: Uint32Array;
  readonly like: Int32Array;
  readonly group: Uint32Array;
  readonly groups: number;
  readonly fromOffsets: Uint32Array;
  readonly from: Uint32Array;
}

/** No virtual pages. */
export const NO_VIRTUAL_PAGES: VirtualPages = { count: 0, urls: [], hostOf: new Uint32Array(0), like: new Int32Array(0), group: new Uint32Array(0), groups: 0, fromOffsets: new Uint32Array(1), from: new Uint32Array(0) };

/** Siblings (other copies of a page) a link is followed from: one match is enough, the union does the rest. */
const MAX_SIBLINGS = 8;

/** Takes a URL; returns its directory when that is deeper than the host's root, else undefined. */
function deepDirectory(url: string): string | undefined {
  const dir = directoryOf(url);
  const root = dir.indexOf('/', dir.indexOf('://') + 3);
  return root >= 0 && dir.length > root + 1 ? dir : undefined;
}

/** Takes two URLs of one origin; returns the relative reference that leads from the first to the second. */
function relativeRef(from: URL, to: URL): string {
  const a = from.pathname.split('/'), b = to.pathname.split('/');
  const dir = a.length - 1;
  let k = 0;
  while (k < dir && k < b.length - 1 && a[k] === b[k]) k++;
  const ref = '../'.repeat(dir - k) + b.slice(k).join('/') + to.search;
  // A link to the page's own folder (its index) is './', never '' (which is the page itself).
  return ref === '' || ref.startsWith('?') ? `./${ref}` : ref;
}

function hasExternal(graph: PageGraph): graph is PageGraph & NamedPageGraph & ExternalLinks {
  const g = graph as Partial<NamedPageGraph & ExternalLinks>;
  return g.externalOffsets instanceof Uint32Array && Array.isArray(g.externalUrls) && Array.isArray(g.urls);
}

/**
 * The "virtual links" of a partial mirror (Section 4), kept on the mirror's own host: a copy's link
 * to a URL of its own host that the crawl lacks is followed from other copies of the page (same
 * trivial cluster) with the same relative reference. When that reaches a crawled page q, the
 * missing URL is a virtual copy of q; when it reaches another missing URL, the two are copies of one
 * missing page. Fragments of a copy that only meet through pages the crawl lacks (every page links
 * to the missing contents page) are then joined through it, and a link into it counts as the copy
 * holding the link. Guards, since nothing of the page itself is known: only pages under the
 * missing URL's directory link to it here (so a link from one copy into another copy's folder
 * joins nothing), and a missing URL at the host's root directory counts only when every page
 * linking to it lies in one folder below the root (a copy mirrored into `/1.81/` whose links climb
 * to the host's missing home page is joined through it; a host's home page linked from two
 * manuals in two folders joins nothing, nor one linked from two copies of one page in two folders,
 * as two releases side by side under one folder are).
 * Links to other hosts never make virtual pages: a collection lives on one host. Takes the graph
 * (with its URLs and external links; a bare page graph has none) and the trivial clusters.
 */
export function virtualPages(graph: PageGraph, trivial: TrivialClusters): VirtualPages {
  if (!hasExternal(graph)) return NO_VIRTUAL_PAGES;
  const n = graph.size;
  const index = new Map<string, number>();
  for (let i = n - 1; i >= 0; i--) index.set(graph.urls[i], i);
  const parsed = new Map<number, URL | undefined>();
  const urlOf = (p: number) => { if (!parsed.has(p)) parsed.set(p, parseUrl(graph.urls[p])); return parsed.get(p); };
  // Missing URL → id; its linking pages; votes for the crawled page it copies; union-find of copies.
  const ids = new Map<string, number>();
  const urls: string[] = [], linking: number[][] = [], votes: Array<Map<number, number>> = [];
  const parent: number[] = [];
  const idOf = (url: string) => {
    let v = ids.get(url);
    if (v === undefined) { v = urls.length; ids.set(url, v); urls.push(url); linking.push([]); votes.push(new Map()); parent.push(v); }
    return v;
  };
  const find = (v: number) => { while (parent[v] !== v) { parent[v] = parent[parent[v]]; v = parent[v]; } return v; };
  // A missing page at the host's root (its home page, or a link that climbs above the folder a
  // copy was mirrored into) is kept only when every page linking to it lies in one folder below
  // the root: it is then the missing home of that one copy, not of everything the host holds.
  // A root page linked from two copies of one collection in two folders (two releases side by side
  // on one host, each page linking up to the host's missing /bugs.html) is no copy's own either: it
  // is left out when at least half the linking pages' trivial clusters (and two) have a page of one
  // name linking to it from two folders. (Two pages of one copy that look alike, in two folders,
  // are a few clusters, not half.)
  const rootLinkers = new Map<string, string>();
  const linkerFolders = new Map<string, Map<string, string>>();
  const linkerClusters = new Map<string, { all: Set<number>; twice: Set<number> }>();
  for (let p = 0; p < n; p++) {
    const from = graph.externalOffsets[p] < graph.externalOffsets[p + 1] ? urlOf(p) : undefined;
    if (!from) continue;
    for (let e = graph.externalOffsets[p]; e < graph.externalOffsets[p + 1]; e++) {
      const to = parseUrl(graph.externalUrls[e]);
      if (!to || to.origin !== from.origin) continue;
      const url = normalizeParsed(to);
      if (index.has(url) || deepDirectory(url) !== undefined) continue;
      const seen = rootLinkers.get(url);
      const folder = directoryOf(graph.urls[p]);
      rootLinkers.set(url, seen === undefined ? folder : commonDirectory([seen, graph.urls[p]]));
      // two copies of one page: one trivial cluster, one file name, two folders
      const r = trivial.rid[p];
      if (trivial.size[r] < 2) continue;
      let folders = linkerFolders.get(url), clusters = linkerClusters.get(url);
      if (!folders) linkerFolders.set(url, (folders = new Map()));
      if (!clusters) linkerClusters.set(url, (clusters = { all: new Set(), twice: new Set() }));
      clusters.all.add(r);
      const key = `${r} ${graph.urls[p].slice(folder.length)}`;
      const other = folders.get(key);
      if (other === undefined) folders.set(key, folder);
      else if (other !== folder) clusters.twice.add(r);
    }
  }
  const shared = new Set<string>();
  for (const [url, c] of linkerClusters) if (c.twice.size >= 2 && 2 * c.twice.size >= c.all.size) shared.add(url);
  linkerFolders.clear();
  /** The missing URL `to` as a virtual page for a link from `p`, or undefined when a guard says no. */
  const missing = (p: number, to: URL) => {
    const url = normalizeParsed(to);
    if (index.has(url)) return undefined;
    const dir = deepDirectory(url) ?? (rootLinkers.has(url) && !shared.has(url) ? deepDirectory(rootLinkers.get(url)!) : undefined);
    return dir !== undefined && graph.urls[p].startsWith(dir) ? url : undefined;
  };
  for (let p = 0; p < n; p++) {
    const lo = graph.externalOffsets[p], hi = graph.externalOffsets[p + 1];
    const r = trivial.rid[p];
    if (lo === hi || trivial.size[r] < 2) continue;
    const from = urlOf(p);
    if (!from) continue;
    for (let e = lo; e < hi; e++) {
      const to = parseUrl(graph.externalUrls[e]);
      if (!to || to.origin !== from.origin) continue;
      const url = missing(p, to);
      if (url === undefined) continue;
      const v = idOf(url);
      linking[v].push(p);
      const rel = relativeRef(from, to);
      let tried = 0;
      for (let x = trivial.offsets[r]; x < trivial.offsets[r + 1] && tried < MAX_SIBLINGS; x++) {
        const sibling = trivial.pages[x];
        if (sibling === p) continue;
        tried++;
        const base = urlOf(sibling);
        const w = base && parseUrl(rel, base);
        if (!w) continue;
        const q = index.get(normalizeParsed(w));
        if (q !== undefined) { if (trivial.rid[q] !== r) votes[v].set(q, (votes[v].get(q) ?? 0) + 1); continue; }
        const other = missing(sibling, w);
        if (other !== undefined) { const a = find(v), b = find(idOf(other)); if (a !== b) parent[Math.max(a, b)] = Math.min(a, b); }
      }
    }
  }
  // Only missing URLs some page links to are pages; a URL seen only from a sibling's side is left out.
  const kept = urls.map((_u, v) => v).filter((v) => linking[v].length > 0).sort((x, y) => (urls[x] < urls[y] ? -1 : 1));
  if (kept.length === 0) return NO_VIRTUAL_PAGES;
  // Per group, the crawled page most votes name.
  const groupVotes = new Map<number, Map<number, number>>();
  for (let v = 0; v < urls.length; v++) {
    const g = find(v);
    for (const [q, c] of votes[v]) { let m = groupVotes.get(g); if (!m) groupVotes.set(g, (m = new Map())); m.set(q, (m.get(q) ?? 0) + c); }
  }
  const groupIds = new Map<number, number>();
  const hostOf = new Uint32Array(kept.length), like = new Int32Array(kept.length), group = new Uint32Array(kept.length), fromOffsets = new Uint32Array(kept.length + 1);
  const from: number[] = [];
  kept.forEach((v, i) => {
    const g = find(v);
    let gid = groupIds.get(g);
    if (gid === undefined) { gid = groupIds.size; groupIds.set(g, gid); }
    group[i] = gid;
    let best = -1, count = 0;
    for (const [q, c] of groupVotes.get(g) ?? []) if (c > count || (c === count && q < best)) { best = q; count = c; }
    like[i] = best;
    const pages = [...new Set(linking[v])].sort((x, y) => x - y);
    hostOf[i] = graph.hostOf[pages[0]];
    for (const p of pages) from.push(p);
    fromOffsets[i + 1] = from.length;
  });
  return { count: kept.length, urls: kept.map((v) => urls[v]), hostOf, like, group, groups: groupIds.size, fromOffsets, from: Uint32Array.from(from) };
}

/**
 * Takes the graph, its virtual pages and the trivial clusters; returns the graph with the virtual
 * pages as nodes size..size+count-1 (links into them added) and the trivial clusters with each
 * virtual page in the cluster of the page it copies (or in one cluster per missing page).
 */
export function withVirtualPages(graph: PageGraph, virtual: VirtualPages, trivial: TrivialClusters): { graph: PageGraph; trivial: TrivialClusters } {
  if (virtual.count === 0) return { graph, trivial };
  const n = graph.size, N = n + virtual.count;
  const extra: number[][] = [];
  for (let v = 0; v < virtual.count; v++) {
    for (let x = virtual.fromOffsets[v]; x < virtual.fromOffsets[v + 1]; x++) (extra[virtual.from[x]] ??= []).push(n + v);
  }
  const linkOffsets = new Uint32Array(N + 1);
  for (let p = 0; p < N; p++) linkOffsets[p + 1] = linkOffsets[p] + (p < n ? graph.linkOffsets[p + 1] - graph.linkOffsets[p] + (extra[p]?.length ?? 0) : 0);
  const linkTargets = new Uint32Array(linkOffsets[N]);
  for (let p = 0; p < n; p++) {
    // Virtual pages come after every crawled page, so appending keeps each row ascending.
    linkTargets.set(graph.linkTargets.subarray(graph.linkOffsets[p], graph.linkOffsets[p + 1]), linkOffsets[p]);
    if (extra[p]) linkTargets.set(extra[p], linkOffsets[p + 1] - extra[p].length);
  }
  const hostOf = new Uint32Array(N);
  hostOf.set(graph.hostOf);
  hostOf.set(virtual.hostOf, n);
  const labels = new Uint32Array(N);
  labels.set(trivial.rid);
  // A virtual copy of a crawled page joins that page's cluster; a page missing everywhere is a cluster of its own.
  for (let v = 0; v < virtual.count; v++) labels[n + v] = virtual.like[v] >= 0 ? trivial.rid[virtual.like[v]] : trivial.count + virtual.group[v];
  return { graph: { size: N, hostOf, linkOffsets, linkTargets }, trivial: trivialFromLabels(labels) };
}
