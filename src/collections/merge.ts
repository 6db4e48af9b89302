import type { LinkSummary } from './link-summary.js';

/**
 * The merge condition of Section 3.1, |Ri| = s_ij = d_ij = |Rj|, or with `extended` the
 * partial-mirror condition of Section 4, |Ri| = s_ij ≥ d_ij = |Rj| (the SQL stages of `scale/`
 * compute both). Takes the four counts; returns whether Ri and Rj may be joined. The growth here
 * uses the exact one ('paper') or the mixed growth of `growRows`, which replaces the extended one.
 */
export function mergeCondition(a: number, s: number, d: number, b: number, extended = false): boolean {
  return extended ? a === s && s >= d && d === b : a === s && s === d && d === b;
}

/**
 * The edges of the trivial cluster graph (TCG), each with the page map that grows a collection
 * across it: a bijection sending every page of Ri to the page of Rj it links to in the same copy.
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
}

/**
 * Takes the LinkSummary; returns the TCG edges meeting the merge condition. The counts alone do not
 * promise a one-to-one map (a page linking to two pages of Rj can hide another page's only target),
 * so each edge's map is taken from the links directly when every source has one target, and
 * otherwise found by augmenting paths (Kuhn); a row with no map is not an edge.
 */
export function mergeEdges(summary: LinkSummary): MergeEdges {
  const from: number[] = [], to: number[] = [], row: number[] = [];
  const mapOffsets: number[] = [0];
  const mapSrc: number[] = [], mapDst: number[] = [];
  let unmatched = 0;
  for (let g = 0; g < summary.length; g++) {
    if (!mergeCondition(summary.a[g], summary.s[g], summary.d[g], summary.b[g])) continue;
    const lo = summary.offsets[g], hi = summary.offsets[g + 1];
    // Every page of Ri has exactly one link into Rj: the links are the map (onto, since d = |Rj|).
    const map = hi - lo === summary.s[g]
      ? { src: summary.linkSrc.subarray(lo, hi), dst: summary.linkDst.subarray(lo, hi) }
      : matchPages(summary.linkSrc.subarray(lo, hi), summary.linkDst.subarray(lo, hi));
    if (!map) { unmatched++; continue; }
    for (let x = 0; x < map.src.length; x++) { mapSrc.push(map.src[x]); mapDst.push(map.dst[x]); }
    from.push(summary.ri[g]); to.push(summary.rj[g]); row.push(g);
    mapOffsets.push(mapSrc.length);
  }
  return {
    length: from.length,
    from: Uint32Array.from(from), to: Uint32Array.from(to), row: Uint32Array.from(row),
    mapOffsets: Uint32Array.from(mapOffsets), mapSrc: Uint32Array.from(mapSrc), mapDst: Uint32Array.from(mapDst),
    unmatched,
  };
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
