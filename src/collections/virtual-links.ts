import { normalizeParsed, parseUrl } from '../graph/url.js';
import type { NamedPageGraph, PageGraph } from './page-graph.js';
import type { TrivialClusters } from './trivial.js';

/** Links to URLs outside the crawl, per page (the shape `WebGraph` keeps them in). */
export interface ExternalLinks {
  /** Page i's are `externalUrls[externalOffsets[i] .. externalOffsets[i + 1])`. */
  readonly externalOffsets: Uint32Array;
  readonly externalUrls: readonly string[];
}

/** Takes two URLs of one origin; returns the relative reference that leads from the first to the second. */
function relativeRef(from: URL, to: URL): string {
  const a = from.pathname.split('/'), b = to.pathname.split('/');
  const dir = a.length - 1;
  let k = 0;
  while (k < dir && k < b.length - 1 && a[k] === b[k]) k++;
  return '../'.repeat(dir - k) + b.slice(k).join('/') + to.search;
}

/**
 * The "virtual links" of a partial mirror (Section 4) when the crawl holds no page they point to: a
 * partial copy's relative links to pages it does not hold lead to URLs outside the crawl. Such a
 * link from page p, followed from every other copy p' of p (same trivial cluster, other host),
 * reaches crawled pages q'; p is given a link to each, as if it linked to the copy elsewhere.
 * Takes the graph with its external links and the trivial clusters; returns the graph with these
 * links added and how many were added. Only the extended condition can use them, since they make
 * several copies share a page.
 */
export function withVirtualLinks(graph: NamedPageGraph & ExternalLinks, trivial: TrivialClusters): { graph: PageGraph; added: number } {
  const n = graph.size;
  const index = new Map<string, number>();
  for (let i = n - 1; i >= 0; i--) index.set(graph.urls[i], i);
  const extra: number[][] = [];
  let added = 0;
  const parsed = new Map<number, URL | undefined>();
  const urlOf = (p: number) => { if (!parsed.has(p)) parsed.set(p, parseUrl(graph.urls[p])); return parsed.get(p); };
  for (let p = 0; p < n; p++) {
    const lo = graph.externalOffsets[p], hi = graph.externalOffsets[p + 1];
    const r = trivial.rid[p];
    if (lo === hi || trivial.size[r] < 2) continue;
    const from = urlOf(p);
    if (!from) continue;
    const targets = new Set<number>();
    for (let e = lo; e < hi; e++) {
      const to = parseUrl(graph.externalUrls[e]);
      if (!to || to.origin !== from.origin) continue;
      const rel = relativeRef(from, to);
      for (let x = trivial.offsets[r]; x < trivial.offsets[r + 1]; x++) {
        const sibling = trivial.pages[x];
        if (sibling === p || graph.hostOf[sibling] === graph.hostOf[p]) continue;
        const base = urlOf(sibling);
        const v = base && parseUrl(rel, base);
        const q = v && index.get(normalizeParsed(v));
        if (q !== undefined && trivial.rid[q] !== r) targets.add(q);
      }
    }
    if (targets.size) { extra[p] = [...targets]; added += targets.size; }
  }
  if (added === 0) return { graph, added };
  const linkOffsets = new Uint32Array(n + 1);
  const rows: Uint32Array[] = new Array(n);
  for (let p = 0; p < n; p++) {
    const own = graph.linkTargets.subarray(graph.linkOffsets[p], graph.linkOffsets[p + 1]);
    const more = extra[p];
    if (!more) { rows[p] = own; linkOffsets[p + 1] = linkOffsets[p] + own.length; continue; }
    const row = Uint32Array.from(new Set([...own, ...more])).sort();
    rows[p] = row;
    linkOffsets[p + 1] = linkOffsets[p] + row.length;
  }
  const linkTargets = new Uint32Array(linkOffsets[n]);
  for (let p = 0; p < n; p++) linkTargets.set(rows[p], linkOffsets[p]);
  return { graph: { size: n, hostOf: graph.hostOf, linkOffsets, linkTargets }, added };
}
