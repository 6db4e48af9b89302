import type { PageGraph } from './page-graph.js';
import { permute, identity, sortByKey } from './sort.js';
import type { TrivialClusters } from './trivial.js';

/**
 * The LinkSummary table of Figure 8, ⟨Ts.RID, Td.RID, a, b, s, d⟩, as columns: one row per
 * ordered pair of distinct trivial clusters (Ri, Rj) with at least one link from Ri to Rj.
 */
export interface LinkSummary {
  /** Number of rows. */
  readonly length: number;
  /** Source trivial cluster Ri and destination Rj. */
  readonly ri: Uint32Array;
  readonly rj: Uint32Array;
  /** |Ri| and |Rj|. */
  readonly a: Uint32Array;
  readonly b: Uint32Array;
  /** s_ij: pages of Ri linking to at least one page of Rj. */
  readonly s: Uint32Array;
  /** d_ij: pages of Rj linked from at least one page of Ri. */
  readonly d: Uint32Array;
  /** Row g's links are `linkSrc/linkDst[offsets[g] .. offsets[g + 1])`, ascending by (src, dst). */
  readonly offsets: Uint32Array;
  readonly linkSrc: Uint32Array;
  readonly linkDst: Uint32Array;
}

/** Options of `linkSummary`. */
export interface LinkSummaryOptions {
  /** Count only links between pages of the same host (collections restricted to a single site). Default false. */
  singleSite?: boolean;
  /** Leave out rows whose source cluster has fewer pages: no cluster of cardinality ≥ 2 can grow from them. Default 1 (every row). */
  minSourceSize?: number;
}

/**
 * Takes the page graph and the trivial clusters; returns the LinkSummary. The join LINK ⋈ TRIVIAL ⋈
 * TRIVIAL is a scan of the link CSR (already ordered by (src, dst)); GROUP BY (Ri, Rj) is two
 * stable counting sorts; the distinct counts s and d use one stamp per page, because a page
 * belongs to exactly one trivial cluster and so to one group per destination cluster at a time.
 */
export function linkSummary(graph: PageGraph, trivial: TrivialClusters, options: LinkSummaryOptions = {}): LinkSummary {
  const singleSite = options.singleSite ?? false;
  const minSourceSize = options.minSourceSize ?? 1;
  const { hostOf, linkOffsets, linkTargets } = graph;
  const { rid, size } = trivial;
  const n = graph.size;
  const keep = (p: number, q: number) =>
    rid[p] !== rid[q] && size[rid[p]] >= minSourceSize && (!singleSite || hostOf[p] === hostOf[q]);

  let total = 0;
  for (let p = 0; p < n; p++) for (let e = linkOffsets[p]; e < linkOffsets[p + 1]; e++) if (keep(p, linkTargets[e])) total++;
  const src = new Uint32Array(total), dst = new Uint32Array(total);
  const keyI = new Uint32Array(total), keyJ = new Uint32Array(total);
  let k = 0;
  for (let p = 0; p < n; p++) {
    for (let e = linkOffsets[p]; e < linkOffsets[p + 1]; e++) {
      const q = linkTargets[e];
      if (!keep(p, q)) continue;
      src[k] = p; dst[k] = q; keyI[k] = rid[p]; keyJ[k] = rid[q];
      k++;
    }
  }
  const order = sortByKey(sortByKey(identity(total), keyJ, trivial.count), keyI, trivial.count);
  const linkSrc = permute(src, order), linkDst = permute(dst, order);
  const gi = permute(keyI, order), gj = permute(keyJ, order);

  let groups = 0;
  for (let x = 0; x < total; x++) if (x === 0 || gi[x] !== gi[x - 1] || gj[x] !== gj[x - 1]) groups++;
  const ri = new Uint32Array(groups), rj = new Uint32Array(groups);
  const a = new Uint32Array(groups), b = new Uint32Array(groups);
  const s = new Uint32Array(groups), d = new Uint32Array(groups);
  const offsets = new Uint32Array(groups + 1);
  const srcStamp = new Uint32Array(n), dstStamp = new Uint32Array(n);
  let g = -1;
  for (let x = 0; x < total; x++) {
    if (x === 0 || gi[x] !== gi[x - 1] || gj[x] !== gj[x - 1]) {
      g++;
      ri[g] = gi[x]; rj[g] = gj[x];
      a[g] = size[gi[x]]; b[g] = size[gj[x]];
      offsets[g] = x;
    }
    // Stamps hold g + 1 so that the zero-filled arrays need no reset between groups.
    if (srcStamp[linkSrc[x]] !== g + 1) { srcStamp[linkSrc[x]] = g + 1; s[g]++; }
    if (dstStamp[linkDst[x]] !== g + 1) { dstStamp[linkDst[x]] = g + 1; d[g]++; }
  }
  offsets[groups] = total;
  return { length: groups, ri, rj, a, b, s, d, offsets, linkSrc, linkDst };
}
