import type { LinkSummary } from './link-summary.js';

/**
 * The merge condition of Section 3.1, |Ri| = s_ij = d_ij = |Rj|, or with `extended` the
 * partial-mirror condition of Section 4, |Ri| = s_ij ≥ d_ij = |Rj|. Takes the four counts; returns
 * whether Ri and Rj may be joined.
 */
export function mergeCondition(a: number, s: number, d: number, b: number, extended: boolean): boolean {
  return extended ? a === s && s >= d && d === b : a === s && s === d && d === b;
}

/**
 * The edges of the trivial cluster graph (TCG), each with the page map that grows a collection
 * across it: every page of Ri is sent to one page of Rj it links to. For an exact edge the map is a
 * bijection (a page of each collection maps to a page of the same collection); for an extended edge
 * it is onto Rj (several copies of Ri share one page of Rj, the "virtual links" of Figure 10).
 */
export interface MergeEdges {
  readonly length: number;
  /** Ri → Rj. */
  readonly from: Uint32Array;
  readonly to: Uint32Array;
  /** LinkSummary row of the edge. */
  readonly row: Uint32Array;
  /** Edge e maps page `mapSrc[k]` to `mapDst[k]` for k in `mapOffsets[e] .. mapOffsets[e + 1]`, mapSrc ascending. */
  readonly mapOffsets: Uint32Array;
  readonly mapSrc: Uint32Array;
  readonly mapDst: Uint32Array;
  /** Rows that met the count condition but whose links admit no such map (two pages of Ri sharing their only target). */
  readonly unmatched: number;
  /** Extended rows left out by the host checks (see `mergeEdges`). */
  readonly offSite: number;
}

/**
 * Takes the LinkSummary; returns the TCG edges meeting the merge condition. The counts alone do not
 * promise a one-to-one map (a page linking to two pages of Rj can hide another page's only target),
 * so each edge's map is taken from the links directly when every source has one target, and
 * otherwise found by augmenting paths (Kuhn); a row with no map is not an edge.
 *
 * With `hostOf`, an extended edge (|Ri| > |Rj|) also needs every page of Rj to be on a host that
 * holds a page of Ri: the unmirrored pages of a partial mirror live at a site with a full copy
 * (Figure 10), whereas a page every copy links to on some other site (the author's home page) is
 * not part of the collection, and pulling it in would drag in its whole site. And the pages of Ri
 * sharing one page of Rj must be on different hosts: copies are sites, while two similar pages of
 * one site linking to one page are a replica inside a collection (Figure 3(b)), not a mirror.
 */
export function mergeEdges(summary: LinkSummary, extended: boolean, hostOf?: Uint32Array): MergeEdges {
  const from: number[] = [], to: number[] = [], row: number[] = [];
  const mapOffsets: number[] = [0];
  const mapSrc: number[] = [], mapDst: number[] = [];
  let unmatched = 0, offSite = 0;
  for (let g = 0; g < summary.length; g++) {
    const a = summary.a[g], s = summary.s[g], d = summary.d[g], b = summary.b[g];
    if (!mergeCondition(a, s, d, b, extended)) continue;
    const lo = summary.offsets[g], hi = summary.offsets[g + 1];
    if (hostOf && a > b && !targetsOnSourceHosts(summary.linkSrc.subarray(lo, hi), summary.linkDst.subarray(lo, hi), hostOf)) { offSite++; continue; }
    let map: { src: Uint32Array; dst: Uint32Array } | undefined;
    // Every page of Ri has exactly one link into Rj: the links are the map (onto, since d = |Rj|).
    if (hi - lo === s) map = { src: summary.linkSrc.subarray(lo, hi), dst: summary.linkDst.subarray(lo, hi) };
    else map = matchPages(summary.linkSrc.subarray(lo, hi), summary.linkDst.subarray(lo, hi));
    if (!map) { unmatched++; continue; }
    if (hostOf && a > b && !sharedAcrossHosts(map, hostOf)) { offSite++; continue; }
    for (let x = 0; x < map.src.length; x++) { mapSrc.push(map.src[x]); mapDst.push(map.dst[x]); }
    from.push(summary.ri[g]); to.push(summary.rj[g]); row.push(g);
    mapOffsets.push(mapSrc.length);
  }
  return {
    length: from.length,
    from: Uint32Array.from(from), to: Uint32Array.from(to), row: Uint32Array.from(row),
    mapOffsets: Uint32Array.from(mapOffsets), mapSrc: Uint32Array.from(mapSrc), mapDst: Uint32Array.from(mapDst),
    unmatched, offSite,
  };
}

function sharedAcrossHosts(map: { src: Uint32Array; dst: Uint32Array }, hostOf: Uint32Array): boolean {
  const seen = new Set<string>();
  for (let x = 0; x < map.src.length; x++) {
    const key = `${map.dst[x]} ${hostOf[map.src[x]]}`;
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

function targetsOnSourceHosts(linkSrc: Uint32Array, linkDst: Uint32Array, hostOf: Uint32Array): boolean {
  const hosts = new Set<number>();
  for (let x = 0; x < linkSrc.length; x++) hosts.add(hostOf[linkSrc[x]]);
  for (let x = 0; x < linkDst.length; x++) if (!hosts.has(hostOf[linkDst[x]])) return false;
  return true;
}

/**
 * Takes the links (src, dst) of one row, grouped by src; returns a map sending every source to one
 * of its targets with every target hit at least once, or undefined when none exists. A matching that
 * saturates the targets (each target gets its own source) is found first; the sources left over
 * take their smallest target. With as many sources as targets this is a perfect matching.
 */
function matchPages(linkSrc: Uint32Array, linkDst: Uint32Array): { src: Uint32Array; dst: Uint32Array } | undefined {
  const srcIds: number[] = [], dstIndex = new Map<number, number>(), dstIds: number[] = [];
  const adjOffsets: number[] = [0], adj: number[] = [];
  for (let x = 0; x < linkSrc.length; x++) {
    if (x > 0 && linkSrc[x] !== linkSrc[x - 1]) adjOffsets.push(adj.length);
    if (x === 0 || linkSrc[x] !== linkSrc[x - 1]) srcIds.push(linkSrc[x]);
    let t = dstIndex.get(linkDst[x]);
    if (t === undefined) { t = dstIds.length; dstIndex.set(linkDst[x], t); dstIds.push(linkDst[x]); }
    adj.push(t);
  }
  adjOffsets.push(adj.length);
  const S = srcIds.length, T = dstIds.length;
  const matchOfDst = new Int32Array(T).fill(-1), matchOfSrc = new Int32Array(S).fill(-1);
  const seen = new Int32Array(T).fill(-1);
  // Augmenting path search from source u, iterative so that large clusters cannot overflow the stack.
  const augment = (root: number): boolean => {
    const stackU: number[] = [root], stackE: number[] = [adjOffsets[root]], via: number[] = [];
    while (stackU.length) {
      const top = stackU.length - 1, u = stackU[top];
      const e = stackE[top];
      if (e >= adjOffsets[u + 1]) { stackU.pop(); stackE.pop(); via.pop(); continue; }
      stackE[top] = e + 1;
      const t = adj[e];
      if (seen[t] === root) continue;
      seen[t] = root;
      if (matchOfDst[t] < 0) {
        via.push(t);
        for (let level = stackU.length - 1; level >= 0; level--) {
          matchOfDst[via[level]] = stackU[level];
          matchOfSrc[stackU[level]] = via[level];
        }
        return true;
      }
      via.push(t);
      stackU.push(matchOfDst[t]); stackE.push(adjOffsets[matchOfDst[t]]);
    }
    return false;
  };
  let matched = 0;
  for (let u = 0; u < S && matched < T; u++) if (augment(u)) matched++;
  if (matched < T) return undefined;
  const src = new Uint32Array(S), dst = new Uint32Array(S);
  for (let u = 0; u < S; u++) {
    let t = matchOfSrc[u];
    if (t < 0) {
      t = adj[adjOffsets[u]];
      for (let e = adjOffsets[u]; e < adjOffsets[u + 1]; e++) if (dstIds[adj[e]] < dstIds[t]) t = adj[e];
    }
    src[u] = srcIds[u]; dst[u] = dstIds[t];
  }
  return { src, dst };
}
