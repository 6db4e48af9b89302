/**
 * Collisions with (C, D) tolerance (Di Iorio et al. §3): pages d1, d2 collide iff
 * ‖X1 − X2‖∞ < C and ‖R1 − R2‖∞ < D. Found with a uniform grid rather than all pairs: each
 * coordinate is cut into cells a little wider than its tolerance (D for RP coordinates, C for HM
 * ones, so never wider than max(C, D)), which puts two colliding pages in the same or adjacent
 * cells on every coordinate. The grid uses the g coordinates with the most cells, g picked per
 * collection by a cost estimate, and each occupied cell probes its 3^g − 1 neighbours (half of them:
 * each pair of cells is visited from the lower key). Candidates are then checked on all 2K coordinates.
 */
import { ResembleError } from '../errors.js';
import { UnionFind, components } from '../cluster/index.js';
import { WordTable } from '../word-table.js';
import { collisionParams, type CollisionOptions } from './options.js';

/** Colliding pairs (a < b) sorted by (a, b), with both distances as evidence. */
export interface CollisionPairs {
  a: Uint32Array;
  b: Uint32Array;
  /** ‖R_a − R_b‖∞. */
  rpDistance: Float64Array;
  /** ‖X_a − X_b‖∞. */
  hmDistance: Float64Array;
}

/** One member of a colliding group and the collision that put it there. */
export interface GroupMember {
  doc: number;
  /** The member it collides with on its path from the group's first member (−1 for the first). */
  through: number;
  rpDistance: number;
  hmDistance: number;
}

/** A group of colliding pages (a connected component of the collision pairs). */
export interface CollisionGroup {
  /** Members in breadth-first order from the smallest DocId; neighbours visited in DocId order. */
  members: GroupMember[];
}

/** Widening of each cell past its tolerance: rounding in (v − lo) / side can then never split a colliding pair by two cells. */
const WIDEN = 1 + 1e-6;
/** Coordinates with more cells than this are not used in the grid (keeps the rounding bound above valid). */
const MAX_CELLS = 1 << 20;
/** At most this many grid coordinates: 3^8 neighbour probes per occupied cell. */
const MAX_GRID = 8;

/** Infinity norm of the difference of rows a and b of an n × k matrix. */
export function rowDistance(v: Float64Array, k: number, a: number, b: number): number {
  let d = 0;
  for (let j = 0; j < k; j++) d = Math.max(d, Math.abs(v[a * k + j] - v[b * k + j]));
  return d;
}

/** Takes RP and HM signatures (n × k each) and the tolerances; returns every colliding pair. */
export function findCollisions(rp: Float64Array, hm: Float64Array, k: number, options: CollisionOptions = {}): CollisionPairs {
  const { C, D, maxPairs } = collisionParams(options);
  const n = rp.length / k;
  if (n * n > Number.MAX_SAFE_INTEGER) throw new ResembleError('E_INPUT', `too many pages for one collision search: ${n}`, { n });
  if (hm.length !== rp.length || !Number.isInteger(n)) {
    throw new ResembleError('E_INPUT', `signatures of different shapes: rp ${rp.length}, hm ${hm.length}, k ${k}`, { rp: rp.length, hm: hm.length, k });
  }
  // Each page as one point of 2K coordinates (RP then HM) with the tolerance of each coordinate.
  const dims = 2 * k;
  const point = new Float64Array(n * dims);
  for (let p = 0; p < n; p++) {
    point.set(rp.subarray(p * k, p * k + k), p * dims);
    point.set(hm.subarray(p * k, p * k + k), p * dims + k);
  }
  const tol = Float64Array.from({ length: dims }, (_, d) => (d < k ? D : C));

  // Cells per coordinate, then the grid coordinates: most cells first, ties to the lower index.
  const axes: Array<{ dim: number; cells: number; cell: Int32Array }> = [];
  for (let d = 0; d < dims; d++) {
    let lo = Infinity, hi = -Infinity;
    for (let p = 0; p < n; p++) {
      const v = point[p * dims + d];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    const side = tol[d] * WIDEN;
    const cells = n === 0 ? 1 : Math.floor((hi - lo) / side) + 1;
    if (cells <= 2 || cells > MAX_CELLS) continue;
    const cell = new Int32Array(n);
    for (let p = 0; p < n; p++) cell[p] = Math.floor((point[p * dims + d] - lo) / side) + 1;
    axes.push({ dim: d, cells, cell });
  }
  axes.sort((x, y) => y.cells - x.cells || x.dim - y.dim);

  // Grid key of g coordinates: mixed radix cells + 2 (cells shifted by 1), so neighbours never alias.
  // Pick g minimizing (3^g / 2)·(4·occupied cells + Σ count²): hash probes (weighed 4 pair checks)
  // plus comparisons, were the cells evenly filled.
  const keys = new Float64Array(n);
  let bestG = 0, bestCost = (4 + n * n) / 2, radix = 1;
  const best = new Float64Array(n);
  for (let g = 1; g <= Math.min(MAX_GRID, axes.length); g++) {
    const axis = axes[g - 1];
    if (radix * (axis.cells + 2) > 2 ** 52) break;
    for (let p = 0; p < n; p++) keys[p] += axis.cell[p] * radix;
    radix *= axis.cells + 2;
    const counts = new WordTable(n, 0, 2);
    for (let p = 0; p < n; p++) {
      const s = counts.slot(keys[p] % 2 ** 32, keys[p] / 2 ** 32);
      counts.values[s]++;
    }
    let sq = 0;
    for (const c of counts.values) sq += c * c;
    const cost = (3 ** g / 2) * (4 * counts.size + sq);
    if (cost < bestCost) {
      bestCost = cost;
      bestG = g;
      best.set(keys);
    }
  }

  const order = Uint32Array.from({ length: n }, (_, i) => i).sort((x, y) => best[x] - best[y] || x - y);
  // Runs of equal keys in `order`: run r is order[runStart[r] .. runStart[r + 1]).
  const starts: number[] = [];
  for (let i = 0; i < n; i++) if (i === 0 || best[order[i]] !== best[order[i - 1]]) starts.push(i);
  starts.push(n);
  const runOf = new WordTable(starts.length, 0, 2);
  for (let r = 0; r + 1 < starts.length; r++) {
    const key = best[order[starts[r]]];
    runOf.set(key % 2 ** 32, key / 2 ** 32, r);
  }
  // Forward neighbour deltas: offset vectors in {−1, 0, 1}^g whose key delta is positive.
  const deltas: number[] = [];
  for (let v = 0; v < 3 ** bestG; v++) {
    let delta = 0, stride = 1, x = v;
    for (let i = 0; i < bestG; i++) {
      delta += ((x % 3) - 1) * stride;
      x = Math.floor(x / 3);
      stride *= axes[i].cells + 2;
    }
    if (delta > 0) deltas.push(delta);
  }

  // Check the coordinates outside the grid first: pages in adjacent cells are already close on the others.
  const inGrid = new Set(axes.slice(0, bestG).map((a) => a.dim));
  const check = Uint32Array.from([...Array(dims).keys()].sort((x, y) => Number(inGrid.has(x)) - Number(inGrid.has(y)) || x - y));
  const found: number[] = [];
  const collide = (p: number, q: number) => {
    const a = p * dims, b = q * dims;
    for (let i = 0; i < dims; i++) {
      const d = check[i];
      if (!(Math.abs(point[a + d] - point[b + d]) < tol[d])) return;
    }
    if (found.length >= maxPairs) {
      throw new ResembleError('E_OPTION', `more than ${maxPairs} colliding pairs: tolerances C = ${C}, D = ${D} are too loose for this collection`, { option: 'maxPairs', C, D, maxPairs });
    }
    found.push(p < q ? p * n + q : q * n + p);
  };
  for (let r = 0; r + 1 < starts.length; r++) {
    const start = starts[r], end = starts[r + 1];
    for (let i = start; i < end; i++) for (let j = i + 1; j < end; j++) collide(order[i], order[j]);
    const key = best[order[start]];
    for (const delta of deltas) {
      const there = key + delta;
      const slot = runOf.find(there % 2 ** 32, there / 2 ** 32, 0);
      if (slot < 0) continue;
      const o = runOf.values[slot];
      for (let i = start; i < end; i++) for (let j = starts[o]; j < starts[o + 1]; j++) collide(order[i], order[j]);
    }
  }

  const sorted = Float64Array.from(found).sort();
  const out: CollisionPairs = {
    a: new Uint32Array(sorted.length),
    b: new Uint32Array(sorted.length),
    rpDistance: new Float64Array(sorted.length),
    hmDistance: new Float64Array(sorted.length),
  };
  sorted.forEach((key, i) => {
    const a = Math.floor(key / n), b = key - a * n;
    out.a[i] = a;
    out.b[i] = b;
    out.rpDistance[i] = rowDistance(rp, k, a, b);
    out.hmDistance[i] = rowDistance(hm, k, a, b);
  });
  return out;
}

/** Takes the number of pages and colliding pairs; returns the groups (components), ordered by smallest DocId. */
export function collisionGroups(n: number, pairs: CollisionPairs): CollisionGroup[] {
  const uf = new UnionFind(n);
  for (let i = 0; i < pairs.a.length; i++) uf.union(pairs.a[i], pairs.b[i]);
  // Adjacency in both directions. Pairs are sorted by (a, b), so each row fills in ascending DocId
  // order: first the partners below (pairs where it is b, by a), then those above (where it is a, by b).
  const degree = new Uint32Array(n + 1);
  for (let i = 0; i < pairs.a.length; i++) { degree[pairs.a[i] + 1]++; degree[pairs.b[i] + 1]++; }
  for (let p = 0; p < n; p++) degree[p + 1] += degree[p];
  const fill = degree.slice(0, n);
  const adj = new Uint32Array(2 * pairs.a.length), edge = new Uint32Array(2 * pairs.a.length);
  for (let i = 0; i < pairs.a.length; i++) {
    adj[fill[pairs.a[i]]] = pairs.b[i]; edge[fill[pairs.a[i]]++] = i;
    adj[fill[pairs.b[i]]] = pairs.a[i]; edge[fill[pairs.b[i]]++] = i;
  }
  const comps = components(uf.roots());
  const seen = new Uint8Array(n);
  const groups: CollisionGroup[] = [];
  for (let c = 0; c < comps.count; c++) {
    const size = comps.offsets[c + 1] - comps.offsets[c];
    if (size < 2) continue;
    const first = comps.members[comps.offsets[c]];
    const members: GroupMember[] = [{ doc: first, through: -1, rpDistance: 0, hmDistance: 0 }];
    seen[first] = 1;
    for (let h = 0; h < members.length; h++) {
      const p = members[h].doc;
      for (let x = degree[p]; x < degree[p + 1]; x++) {
        const q = adj[x];
        if (seen[q]) continue;
        seen[q] = 1;
        members.push({ doc: q, through: p, rpDistance: pairs.rpDistance[edge[x]], hmDistance: pairs.hmDistance[edge[x]] });
      }
    }
    groups.push({ members });
  }
  return groups;
}

/** A group in which every two members collide; each member with its distances to the group's first member. */
export interface CliqueGroup {
  /** Members in DocId order; the first has distances 0. */
  members: Array<{ doc: number; rpDistance: number; hmDistance: number }>;
}

/**
 * Takes the number of pages and colliding pairs; returns groups that do not chain: every two
 * members of a group collide (cliques of the collision graph). Built greedily in DocId order: a
 * page joins the first group (by first member) all of whose members it collides with, else it
 * starts a group. Groups of one are dropped; a collision across two groups stays in the pairs.
 * Groups are ordered by first member. Cost: O(pairs + Σ group sizes · log degree) per page.
 */
export function cliqueGroups(n: number, pairs: CollisionPairs, rp?: Float64Array, hm?: Float64Array, k?: number): CliqueGroup[] {
  // Sorted adjacency (CSR): pairs are sorted by (a, b), so each row fills in ascending order.
  const degree = new Uint32Array(n + 1);
  for (let i = 0; i < pairs.a.length; i++) { degree[pairs.a[i] + 1]++; degree[pairs.b[i] + 1]++; }
  for (let p = 0; p < n; p++) degree[p + 1] += degree[p];
  const fill = degree.slice(0, n);
  const adj = new Uint32Array(2 * pairs.a.length);
  for (let i = 0; i < pairs.a.length; i++) adj[fill[pairs.b[i]]++] = pairs.a[i];
  for (let i = 0; i < pairs.a.length; i++) adj[fill[pairs.a[i]]++] = pairs.b[i];
  const collides = (p: number, q: number) => {
    let lo = degree[p], hi = degree[p + 1];
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      if (adj[m] < q) lo = m + 1;
      else hi = m;
    }
    return lo < degree[p + 1] && adj[lo] === q;
  };
  const groupOf = new Int32Array(n).fill(-1);
  const groups: number[][] = [];
  for (let p = 0; p < n; p++) {
    if (degree[p + 1] === degree[p]) continue;
    let joined = -1;
    // Candidate groups: those of partners below p, smallest group id first.
    const candidates: number[] = [];
    for (let x = degree[p]; x < degree[p + 1] && adj[x] < p; x++) if (groupOf[adj[x]] >= 0) candidates.push(groupOf[adj[x]]);
    candidates.sort((x, y) => x - y);
    for (let c = 0; c < candidates.length && joined < 0; c++) {
      if (c > 0 && candidates[c] === candidates[c - 1]) continue;
      if (groups[candidates[c]].every((q) => collides(p, q))) joined = candidates[c];
    }
    if (joined < 0) {
      joined = groups.length;
      groups.push([]);
    }
    groups[joined].push(p);
    groupOf[p] = joined;
  }
  const distance = (v: Float64Array | undefined, a: number, b: number) => (v && k ? rowDistance(v, k, a, b) : NaN);
  return groups.filter((g) => g.length > 1).map((g) => ({
    members: g.map((doc) => ({ doc, rpDistance: distance(rp, g[0], doc), hmDistance: distance(hm, g[0], doc) })),
  }));
}
