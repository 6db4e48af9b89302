// Clusters as plain records for output: URLs in place of DocIds, evidence per member.
import type { SketchOptions, SketchParams } from '../sketch/options.js';
import type { SketchDocuments } from '../sketch/sketch-set.js';
import { round4 } from '../report/plain.js';
import type { Clusters } from './clusters.js';
import { KIND_NAMES } from './equivalence.js';

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

/** A score as `plain` prints it: rounded to 4 decimals, null when not finite. */
function score(x: number): number | null {
  return Number.isFinite(x) ? (Number.isInteger(x) ? x : round4(x)) : null;
}

/**
 * Cluster i as `resemble dups` prints it, in one pass: what
 * `plain(withContentEvidence(clusterRecord(c, i, urls), c.membersOf(i), set))` gives, field for
 * field and in the same order (a test holds them equal), without the intermediate objects. The
 * records of a large crawl are made on one thread after the clusters are known: this is the part
 * of the output that does not wait on the sink.
 */
export function plainClusterRecord(c: Clusters, i: number, urls: ArrayLike<string>, set: SketchDocuments): ClusterRecordOut {
  const docs = c.membersOf(i);
  const content = set.params.content === 'main';
  const w = set.params.w;
  const members: MemberRecord[] = new Array(docs.length);
  for (let k = 0; k < docs.length; k++) {
    const d = docs[k];
    const v = c.via[d];
    const kind = KIND_NAMES[c.kind[d]];
    let m: Record<string, unknown>;
    if (v < 0) m = { url: urls[d], kind, depth: 0, toRepresentative: 1, chained: false };
    else {
      m = { url: urls[d], kind, via: urls[v], resemblance: score(c.resemblance[d]), containment: score(c.containment[d]), contains: score(c.contains[d]), shared: score(c.shared[d]) };
      if (kind === 'near') m.hits = score(c.hits[d]);
      m.depth = score(c.depth[d]);
      m.toRepresentative = score(c.toRepresentative[d]);
      m.chained = c.memberChained[d] === 1;
    }
    if (content) {
      m.template = score(Math.round(set.templateShare(d) * 1e4) / 1e4);
      m.contentShingles = score(Math.max(1, set.tokens[d] - w + 1));
    }
    members[k] = m as unknown as MemberRecord;
  }
  return { cluster: i, representative: urls[c.representative[i]], size: docs.length, chained: c.chained[i] === 1, members };
}

/** The sketch options that make sketches with these parameters (to sketch a query like an index). */
export function sketchOptionsFor(p: SketchParams): SketchOptions {
  const o: SketchOptions = { w: p.w, unit: p.unit, markup: p.markup, kind: p.kind, k: p.k, superShingle: p.superShingle, seed: p.seed };
  if (p.kind === 'min') o.s = p.s;
  if (p.kind === 'mod') o.m = p.m;
  if (p.content === 'main') Object.assign(o, { content: 'main', linkDensity: p.linkDensity! / 1000, minContent: p.minContent });
  return o;
}
