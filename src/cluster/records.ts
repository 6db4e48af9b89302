// Clusters as plain records for output: URLs in place of DocIds, evidence per member.
import type { SketchOptions, SketchParams } from '../sketch/options.js';
import type { Clusters } from './clusters.js';

/** One member of a cluster record. */
export interface MemberRecord {
  url: string;
  kind: string;
  /** Evidence, absent for the representative. */
  via?: string;
  resemblance?: number;
  containment?: number;
  contains?: number;
  shared?: number;
  /** Keys matched in the candidate step, for near members only. */
  hits?: number;
  depth: number;
  toRepresentative: number;
  chained: boolean;
}

/** One cluster record: representative first among members. */
export interface ClusterRecordOut {
  cluster: number;
  representative: string;
  size: number;
  chained: boolean;
  members: MemberRecord[];
}

/** Cluster i with URLs (urls[DocId]) in place of DocIds; the representative carries no evidence. */
export function clusterRecord(c: Clusters, i: number, urls: ArrayLike<string>): ClusterRecordOut {
  const members: MemberRecord[] = [];
  for (const d of c.membersOf(i)) {
    const e = c.evidence(d);
    if (e.via === null) { members.push({ url: urls[d], kind: e.kind, depth: 0, toRepresentative: 1, chained: false }); continue; }
    members.push({
      url: urls[d], kind: e.kind, via: urls[e.via], resemblance: e.resemblance, containment: e.containment,
      contains: e.contains, shared: e.shared, hits: e.kind === 'near' ? e.hits : undefined, depth: e.depth,
      toRepresentative: e.toRepresentative, chained: e.chained,
    });
  }
  return { cluster: i, representative: urls[c.representative[i]], size: members.length, chained: c.chained[i] === 1, members };
}

/** The sketch options that make sketches with these parameters (to sketch a query like an index). */
export function sketchOptionsFor(p: SketchParams): SketchOptions {
  const o: SketchOptions = { w: p.w, unit: p.unit, markup: p.markup, kind: p.kind, k: p.k, superShingle: p.superShingle, seed: p.seed };
  if (p.kind === 'min') o.s = p.s;
  if (p.kind === 'mod') o.m = p.m;
  if (p.content === 'main') Object.assign(o, { content: 'main', linkDensity: p.linkDensity! / 1000, minContent: p.minContent });
  return o;
}
