/**
 * Links as the connectivity algorithms need them: per host and path, the out-links of that page
 * (conn, Bharat et al. §3.3), and the host graph with links counted per host pair (hconn, §3.4).
 */
import { hostKey, splitUrl, type HostSet } from './host-set.js';

/** Per host, each path's distinct out-links: same-host links as `/path` (made relative, §3.3), others as `host/path`. */
export class LinkTable {
  /** Per host id: path → sorted distinct normalized targets. Paths absent were not seen as link sources. */
  readonly outLinks: Array<Map<string, string[]>>;
  /** Per host id: target host name → number of links (self-links excluded), the host graph's out-edges. */
  readonly hostEdges: Array<Map<string, number>>;
  /** Links whose source or target could not be parsed, or whose source host is not in the host set. */
  readonly skipped: number;

  private constructor(outLinks: Array<Map<string, string[]>>, hostEdges: Array<Map<string, number>>, skipped: number) {
    this.outLinks = outLinks;
    this.hostEdges = hostEdges;
    this.skipped = skipped;
  }

  /** Takes hosts and (source URL, target URL) pairs; returns the link table. A repeated pair counts once per occurrence in the host graph. */
  static fromPairs(hosts: HostSet, links: Iterable<readonly [string, string]>): LinkTable {
    const sets: Array<Map<string, Set<string>>> = Array.from({ length: hosts.size }, () => new Map());
    const edges: Array<Map<string, number>> = Array.from({ length: hosts.size }, () => new Map());
    let skipped = 0;
    // Links arrive grouped by page: parse each source once.
    let lastSrc: string | undefined, lastParts: ReturnType<typeof splitUrl>;
    for (const [src, dst] of links) {
      if (src !== lastSrc) {
        lastSrc = src;
        lastParts = splitUrl(src);
      }
      const s = lastParts;
      const h = s ? hosts.id(s.host) : -1;
      const d = splitUrl(dst);
      if (!s || h < 0 || !d) {
        skipped++;
        continue;
      }
      let set = sets[h].get(s.path);
      if (!set) sets[h].set(s.path, (set = new Set()));
      set.add(d.host === s.host ? '/' + d.path : `${d.host}/${d.path}`);
      if (d.host !== s.host) edges[h].set(d.host, (edges[h].get(d.host) ?? 0) + 1);
    }
    const outLinks = sets.map((m) => new Map([...m].map(([p, set]) => [p, [...set].sort()])));
    return new LinkTable(outLinks, edges, skipped);
  }

  /** Takes hosts and per-document out-links (URL → absolute targets, an empty list for a page without links); returns the link table. */
  static fromDocuments(hosts: HostSet, documents: Iterable<{ url: string; links?: readonly string[] }>): LinkTable {
    const pairs: Array<readonly [string, string]> = [];
    const pages: string[] = [];
    for (const d of documents) {
      if (!d.links) continue;
      pages.push(d.url);
      for (const l of d.links) pairs.push([d.url, l]);
    }
    const table = LinkTable.fromPairs(hosts, pairs);
    // A page that was read but has no links still has a (empty) link set: conn can compare it.
    for (const url of pages) {
      const s = splitUrl(url);
      const h = s ? hosts.id(s.host) : -1;
      if (s && h >= 0 && !table.outLinks[h].has(s.path)) table.outLinks[h].set(s.path, []);
    }
    return table;
  }

  /** Takes hosts and host-level edges (source host, target host, number of links); returns a table with the host graph only. */
  static fromHostEdges(hosts: HostSet, edges: Iterable<readonly [string, string, number]>): LinkTable {
    const out: Array<Map<string, number>> = Array.from({ length: hosts.size }, () => new Map());
    let skipped = 0;
    for (const [src, dst, n] of edges) {
      const h = hosts.id(src);
      const t = hostKey(dst);
      if (h < 0 || !(n > 0)) {
        skipped++;
        continue;
      }
      if (t !== hosts.hosts[h]) out[h].set(t, (out[h].get(t) ?? 0) + n);
    }
    return new LinkTable(Array.from({ length: hosts.size }, () => new Map()), out, skipped);
  }
}
