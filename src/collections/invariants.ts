import type { SimilarCluster } from './assemble.js';
import { checkDefinition5 } from './definition5.js';
import { HOLE } from './matrix.js';
import type { PageGraph } from './page-graph.js';

/** What the invariants are checked against: the graph, optionally its URLs and links to uncrawled URLs. */
export interface InvariantGraph extends PageGraph {
  readonly urls?: readonly string[];
  readonly externalOffsets?: Uint32Array;
  readonly externalUrls?: readonly string[];
}

/**
 * Checks the invariants of one cluster; returns what is wrong ([] when it holds):
 * - every collection holds at least one page, on one host, under its prefix, and the collections are
 *   disjoint (a page is in at most one collection of the cluster);
 * - every column holds pages of one trivial cluster (`rid`), in two collections or more;
 * - every collection is link-connected on its host: through links between its pages, through pages
 *   of its host under its prefix that are in no collection (`listed` says which are; the pages of
 *   its copy that no other copy holds), or through a URL of its host that two of its pages link to
 *   and the crawl lacks (a page a partial copy misses); the pages of columns joined by path
 *   (`byPath`) are not counted, as nothing crawled links them;
 * - Definition 5 holds between every two collections on the columns both hold.
 */
export function clusterProblems(
  c: SimilarCluster, graph: InvariantGraph, inLinks: { offsets: Uint32Array; sources: Uint32Array }, rid?: ArrayLike<number>, listed?: Uint8Array,
): string[] {
  const problems: string[] = [];
  const seen = new Set<number>();
  for (let x = 0; x < c.cardinality; x++) {
    const pages: number[] = [], linked: number[] = [];
    for (let col = 0; col < c.size; col++) {
      const p = c.pages[x * c.size + col];
      if (p === HOLE) continue;
      if (seen.has(p)) problems.push(`page ${p} is in two collections`);
      seen.add(p);
      pages.push(p);
      if (!c.byPath?.[col]) linked.push(p);
    }
    if (pages.length === 0) { problems.push(`collection ${x} holds no page`); continue; }
    if (pages.length !== c.held[x]) problems.push(`collection ${x} holds ${pages.length} pages, not ${c.held[x]}`);
    if (new Set(pages.map((p) => graph.hostOf[p])).size > 1) problems.push(`collection ${x} spans hosts`);
    if (graph.urls && c.prefixes[x] !== '' && pages.some((p) => !graph.urls![p].startsWith(c.prefixes[x]))) problems.push(`collection ${x} has a page outside ${c.prefixes[x]}`);
    if (!connected(linked, graph, inLinks, c.prefixes[x], listed)) problems.push(`collection ${x} is not link-connected`);
  }
  for (let col = 0; col < c.size; col++) {
    let held = 0;
    const rids = new Set<number>();
    for (let x = 0; x < c.cardinality; x++) {
      const p = c.pages[x * c.size + col];
      if (p === HOLE) continue;
      held++;
      if (rid) rids.add(rid[p]);
    }
    if (held < 2) problems.push(`column ${col} is held by ${held} collection`);
    if (rids.size > 1) problems.push(`column ${col} mixes trivial clusters`);
  }
  if (checkDefinition5(c, inLinks, 1).length > 0) problems.push('Definition 5 fails');
  return problems;
}

function connected(pages: readonly number[], graph: InvariantGraph, inLinks: { offsets: Uint32Array; sources: Uint32Array }, prefix: string, listed?: Uint8Array): boolean {
  if (pages.length <= 1) return true;
  const host = graph.hostOf[pages[0]];
  const mine = new Set(pages);
  // Pages that may lie on a path: unlisted pages of the host under the prefix.
  const between = (q: number) => listed !== undefined && !listed[q] && graph.hostOf[q] === host && (!graph.urls || graph.urls[q].startsWith(prefix));
  const missingOf = (p: number): string[] => {
    if (!graph.externalOffsets || !graph.externalUrls || !graph.urls) return [];
    const origin = graph.urls[p].slice(0, graph.urls[p].indexOf('/', graph.urls[p].indexOf('://') + 3) + 1);
    return graph.externalUrls.slice(graph.externalOffsets[p], graph.externalOffsets[p + 1]).filter((u) => u.startsWith(origin));
  };
  // Missing URLs → the collection's pages linking to them.
  const viaMissing = new Map<string, number[]>();
  for (const p of pages) for (const u of missingOf(p)) (viaMissing.get(u) ?? viaMissing.set(u, []).get(u)!).push(p);
  const seen = new Set([pages[0]]), queue = [pages[0]];
  const step = (q: number) => { if (!seen.has(q) && (mine.has(q) || between(q))) { seen.add(q); queue.push(q); } };
  while (queue.length) {
    const p = queue.pop()!;
    for (let e = graph.linkOffsets[p]; e < graph.linkOffsets[p + 1]; e++) step(graph.linkTargets[e]);
    for (let e = inLinks.offsets[p]; e < inLinks.offsets[p + 1]; e++) step(inLinks.sources[e]);
    if (mine.has(p)) for (const u of missingOf(p)) for (const q of viaMissing.get(u) ?? []) step(q);
  }
  return pages.every((p) => seen.has(p));
}
