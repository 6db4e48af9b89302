// The paper's final phase: pairs over the threshold are links in a union-find; connected
// components are the clusters. Links are added strongest first (resemblance descending, ties by
// pair order), so the links that joined two components form a maximum spanning forest; rooted at
// each cluster's representative it gives every member the member it joined through.
import { KIND_NAMES, KIND_NEAR, type Equivalence, type EvidenceKind } from './equivalence.js';
import type { PairEstimator } from '../sketch/columns.js';
import { estimatePairs } from '../sketch/row-estimates.js';
import type { PairTable } from './pairs.js';
import { UnionFind } from './union-find.js';

/** Which pairs join: resemblance ≥ threshold, or containment either way ≥ containment (when set). */
export interface ClusterPolicy {
  threshold: number;
  containment?: number;
  /** For super-shingle and LSH candidates: false joins every candidate pair, true applies the threshold. */
  verify: boolean;
}

/** Why one document is in its cluster. */
export interface MemberEvidence {
  doc: number;
  /** 'representative' for the cluster's representative; otherwise how it joined. */
  kind: EvidenceKind;
  /** The member it joined through (null for the representative). */
  via: number | null;
  /** Estimated resemblance to `via`, containment of this document in `via`, and of `via` in it. */
  resemblance: number;
  containment: number;
  contains: number;
  /** Sketch values shared with `via`. */
  shared: number;
  /** Keys shared with `via` in the candidate step (non-common shingles, super-shingles or bands). */
  hits: number;
  /** Links from the representative. */
  depth: number;
  /** Estimated resemblance to the representative. */
  toRepresentative: number;
  /** True when it is in the cluster only through a chain: below the policy against the representative. */
  chained: boolean;
}

/** One cluster with its members (representative first, then by DocId) and their evidence. */
export interface ClusterRecord {
  id: number;
  representative: number;
  size: number;
  /** True when some member joined only through a chain. */
  chained: boolean;
  members: MemberEvidence[];
}

/** Counts of the final phase. */
export interface ClusterStats {
  acceptedPairs: number;
  clusters: number;
  clusteredDocuments: number;
  chainedClusters: number;
  largestCluster: number;
}

/** Clusters of ≥ 2 documents as columns, with per-document evidence; `cluster(i)` gives objects. */
export class Clusters {
  constructor(
    readonly documents: number,
    readonly count: number,
    /** Cluster of each document, -1 when alone. Clusters are numbered by representative DocId. */
    readonly clusterOf: Int32Array,
    readonly offsets: Uint32Array,
    readonly members: Uint32Array,
    readonly representative: Uint32Array,
    readonly chained: Uint8Array,
    readonly via: Int32Array,
    readonly kind: Uint8Array,
    readonly resemblance: Float64Array,
    readonly containment: Float64Array,
    readonly contains: Float64Array,
    readonly shared: Uint32Array,
    readonly hits: Uint32Array,
    readonly depth: Uint32Array,
    readonly toRepresentative: Float64Array,
    readonly memberChained: Uint8Array,
    readonly stats: ClusterStats,
  ) {}

  /** Members of cluster i (representative first). */
  membersOf(i: number): Uint32Array {
    return this.members.subarray(this.offsets[i], this.offsets[i + 1]);
  }

  /** The evidence of document d. */
  evidence(d: number): MemberEvidence {
    const v = this.via[d];
    return {
      doc: d, kind: KIND_NAMES[this.kind[d]], via: v < 0 ? null : v,
      resemblance: this.resemblance[d], containment: this.containment[d], contains: this.contains[d],
      shared: this.shared[d], hits: this.hits[d], depth: this.depth[d],
      toRepresentative: this.toRepresentative[d], chained: this.memberChained[d] === 1,
    };
  }

  /** Cluster i as an object with its members' evidence. */
  cluster(i: number): ClusterRecord {
    const m = this.membersOf(i);
    return {
      id: i, representative: this.representative[i], size: m.length, chained: this.chained[i] === 1,
      members: Array.from(m, (d) => this.evidence(d)),
    };
  }

  /** Every cluster, in order. */
  *[Symbol.iterator](): IterableIterator<ClusterRecord> {
    for (let i = 0; i < this.count; i++) yield this.cluster(i);
  }
}

/** Whether pair i joins under a policy. */
export function accepts(pairs: PairTable, i: number, policy: ClusterPolicy, verified: boolean): boolean {
  if (!verified && !policy.verify) return true;
  if (pairs.resemblance[i] >= policy.threshold) return true;
  const c = policy.containment;
  return c !== undefined && (pairs.containmentAB[i] >= c || pairs.containmentBA[i] >= c);
}

/**
 * Runs the final phase: equivalence links, then accepted pairs strongest first, into a union-find;
 * evidence from the spanning forest rooted at each cluster's representative (lowest priority,
 * then lowest DocId). `verified` says pairs are checked against the threshold whatever policy.verify.
 * Pairs marked in `aside` are left out (near the threshold, unchecked, between pages other pairs
 * already join: they change no cluster, and their estimate is not evidence).
 */
export function finalPhase(n: number, eq: Equivalence, pairs: PairTable, policy: ClusterPolicy, verified: boolean,
  priority: Float64Array, est: PairEstimator, aside?: Uint8Array): Clusters {
  // Accepted pairs sorted by resemblance descending, ties by pair index: one float key each.
  const joins = (i: number) => (aside === undefined || aside[i] === 0) && accepts(pairs, i, policy, verified);
  let acc = 0;
  for (let i = 0; i < pairs.count; i++) if (joins(i)) acc++;
  const keys = new Float64Array(acc);
  acc = 0;
  for (let i = 0; i < pairs.count; i++) {
    if (joins(i)) keys[acc++] = Math.round((1 - pairs.resemblance[i]) * 1048576) * 4294967296 + i;
  }
  keys.sort();

  const uf = new UnionFind(n);
  // Tree edges: (u, v, pair index or -1 for an equivalence link).
  let edges = 0;
  const eu = new Uint32Array(Math.max(1, n)), ev = new Uint32Array(Math.max(1, n)), ep = new Int32Array(Math.max(1, n));
  for (let d = 0; d < n; d++) {
    const v = eq.via[d];
    if (v >= 0 && uf.union(d, v)) { eu[edges] = d; ev[edges] = v; ep[edges] = -1; edges++; }
  }
  for (let k = 0; k < acc; k++) {
    const i = keys[k] % 4294967296;
    const a = pairs.a[i], b = pairs.b[i];
    if (uf.union(a, b)) { eu[edges] = a; ev[edges] = b; ep[edges] = i; edges++; }
  }

  // Clusters: components of ≥ 2 documents, numbered by representative DocId.
  const roots = uf.roots();
  const best = new Int32Array(n).fill(-1);
  for (let d = 0; d < n; d++) {
    const r = roots[d];
    if (uf.size[r] < 2) continue;
    const b = best[r];
    if (b < 0 || priority[d] < priority[b] || (priority[d] === priority[b] && d < b)) best[r] = d;
  }
  let count = 0;
  const clusterOfRoot = new Int32Array(n).fill(-1);
  const clusterOf = new Int32Array(n).fill(-1);
  const repsInOrder: number[] = [];
  const isRep = new Uint8Array(n);
  for (let d = 0; d < n; d++) { const r = roots[d]; if (uf.size[r] >= 2 && best[r] === d) isRep[d] = 1; }
  for (let d = 0; d < n; d++) if (isRep[d]) { clusterOfRoot[roots[d]] = count++; repsInOrder.push(d); }
  const offsets = new Uint32Array(count + 1);
  for (let d = 0; d < n; d++) {
    const c = clusterOfRoot[roots[d]];
    clusterOf[d] = c;
    if (c >= 0) offsets[c + 1]++;
  }
  for (let c = 0; c < count; c++) offsets[c + 1] += offsets[c];
  const members = new Uint32Array(offsets[count]);
  const cursor = offsets.slice(0, count);
  const representative = Uint32Array.from(repsInOrder);
  for (let c = 0; c < count; c++) members[cursor[c]++] = representative[c];
  for (let d = 0; d < n; d++) { const c = clusterOf[d]; if (c >= 0 && !isRep[d]) members[cursor[c]++] = d; }

  // Orient the spanning forest from each representative (BFS over the tree edges).
  const adjStart = new Uint32Array(n + 1);
  for (let e = 0; e < edges; e++) { adjStart[eu[e] + 1]++; adjStart[ev[e] + 1]++; }
  for (let d = 0; d < n; d++) adjStart[d + 1] += adjStart[d];
  const adj = new Uint32Array(2 * edges);
  const fill = adjStart.slice(0, n);
  for (let e = 0; e < edges; e++) { adj[fill[eu[e]]++] = e; adj[fill[ev[e]]++] = e; }

  const via = new Int32Array(n).fill(-1);
  const kind = new Uint8Array(n);
  const resemblance = new Float64Array(n), containment = new Float64Array(n), contains = new Float64Array(n);
  const shared = new Uint32Array(n), hits = new Uint32Array(n), depth = new Uint32Array(n);
  const toRepresentative = new Float64Array(n);
  const memberChained = new Uint8Array(n);
  const chained = new Uint8Array(count);
  const queue = new Uint32Array(Math.max(1, n));
  const seen = new Uint8Array(n);
  let chainedClusters = 0, largest = 0;
  // (member, its representative) for every member but the representatives
  const toA = new Uint32Array(offsets[count] - count), toB = new Uint32Array(toA.length);
  let toN = 0;
  for (let c = 0; c < count; c++) {
    const rep = representative[c];
    largest = Math.max(largest, offsets[c + 1] - offsets[c]);
    let head = 0, tail = 0;
    queue[tail++] = rep; seen[rep] = 1;
    toRepresentative[rep] = 1;
    while (head < tail) {
      const u = queue[head++];
      for (let k = adjStart[u]; k < adjStart[u + 1]; k++) {
        const e = adj[k];
        const x = eu[e] === u ? ev[e] : eu[e];
        if (seen[x]) continue;
        seen[x] = 1; queue[tail++] = x;
        via[x] = u; depth[x] = depth[u] + 1;
        const i = ep[e];
        if (i < 0) {
          // An equivalence link: the set-aside document carries the kind; rows are equal.
          const setAside = eq.via[x] === u ? x : u;
          kind[x] = eq.kind[setAside];
          resemblance[x] = 1; containment[x] = 1; contains[x] = 1;
          shared[x] = est.set.offsets[x + 1] - est.set.offsets[x];
        } else {
          kind[x] = KIND_NEAR;
          resemblance[x] = pairs.resemblance[i];
          const xIsA = pairs.a[i] === x;
          containment[x] = xIsA ? pairs.containmentAB[i] : pairs.containmentBA[i];
          contains[x] = xIsA ? pairs.containmentBA[i] : pairs.containmentAB[i];
          shared[x] = pairs.shared[i];
          hits[x] = pairs.hits[i];
        }
        toA[toN] = x; toB[toN] = rep; toN++;
      }
    }
  }
  // Each member against its representative, estimated together: rows on disk are read a set at a
  // time in file order (PairEstimator.many) rather than one member at a time.
  const e = estimatePairs(est, toA.subarray(0, toN), toB.subarray(0, toN));
  const cPolicy = policy.containment;
  for (let k = 0; k < toN; k++) {
    const x = toA[k], r = e.resemblance[k];
    toRepresentative[x] = r;
    const direct = r >= policy.threshold || (cPolicy !== undefined && (e.containmentAB[k] >= cPolicy || e.containmentBA[k] >= cPolicy));
    if (!direct && depth[x] > 1) { memberChained[x] = 1; chained[clusterOf[x]] = 1; }
  }
  for (let c = 0; c < count; c++) if (chained[c]) chainedClusters++;
  return new Clusters(n, count, clusterOf, offsets, members, representative, chained, via, kind,
    resemblance, containment, contains, shared, hits, depth, toRepresentative, memberChained,
    { acceptedPairs: acc, clusters: count, clusteredDocuments: offsets[count], chainedClusters, largestCluster: largest });
}
