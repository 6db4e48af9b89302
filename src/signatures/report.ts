/**
 * What `resemble signatures` reports, in records linear in the pages: pages whose signatures are
 * equal (RP and HM value for value; only RP when C > 1 leaves HM unconstrained, only HM when D > 1)
 * are one point of the collision search, so a page copied
 * 10,000 times costs one point, not 50 million pairs. Groups (cliques of the collision graph, see
 * `cliqueGroups`) list their members once, each member with the earlier member whose signatures it
 * repeats (`copyOf`); the pairs inside a group are listed only for groups of at most
 * `listPairsUpTo` members (every two members of a group collide: the rest are implied). A collision
 * across groups between two signatures held by more pages than that (the product of their counts)
 * is one pair, between the first pages holding them, with the counts.
 */
import { optionError, intOption } from '../errors.js';
import { cliqueGroups, findCollisions, rowDistance, type CollisionPairs } from './collisions.js';
import { collisionParams, type CollisionOptions } from './options.js';

/** Groups of at most this many members have their pairs listed; a cross-group pair is expanded while the product of its signatures' page counts is at most this. */
export const LIST_PAIRS_UP_TO = 64;

/** Options of `signatureReport`: the collision tolerances and the pair-listing limit. */
export interface SignatureReportOptions extends CollisionOptions {
  /** Groups of at most this many members list their pairs (default LIST_PAIRS_UP_TO = 64). */
  listPairsUpTo?: number;
  /**
   * The verification of candidates: takes two pages (DocIds, a < b) whose signatures are within
   * the tolerances and differ; returns whether they collide. A pair of signatures is kept or
   * dropped by their first pages; pages with equal signatures always collide. Default: every
   * candidate collides (the paper's rule).
   */
  verify?: (a: number, b: number) => boolean;
}

/** One member of a report group. */
export interface ReportMember {
  doc: number;
  /** ‖R − R_first‖∞ and ‖X − X_first‖∞ against the group's first member. */
  rpDistance: number;
  hmDistance: number;
  /** The group's earliest member with exactly these signatures, when it is not this one (−1 otherwise). */
  copyOf: number;
}

/** A group: every two members collide; members in DocId order, each listed once. */
export interface ReportGroup {
  members: ReportMember[];
  /** True when the group's pairs are among the report's pairs (at most `listPairsUpTo` members). */
  pairsListed: boolean;
}

/** Colliding pairs (a < b), sorted by (a, b); `aPages` / `bPages` > 1 when the pair stands for every page with a's (b's) signatures. */
export interface ReportPairs {
  a: Uint32Array;
  b: Uint32Array;
  rpDistance: Float64Array;
  hmDistance: Float64Array;
  aPages: Uint32Array;
  bPages: Uint32Array;
}

/** What `signatureReport` returns. */
export interface SignatureReport {
  groups: ReportGroup[];
  pairs: ReportPairs;
  /** Distinct signatures (points of the collision search). */
  distinct: number;
  /** Colliding page pairs in all, listed or implied. */
  collidingPairs: number;
  /** Pairs of distinct signatures within the tolerances, and those of them `verify` dropped (0 without it). */
  candidates: number;
  rejected: number;
}

/**
 * Takes n × k RP and HM signatures and which of them to compare (a tolerance above 1 leaves its
 * signature unconstrained: components are in [0, 1]); returns each page's class of equal
 * signatures (classes numbered by first page) and the classes' first pages.
 */
export function equalSignatureClasses(rp: Float64Array, hm: Float64Array, k: number, compare: { rp: boolean; hm: boolean } = { rp: true, hm: true }): { classOf: Uint32Array; first: number[] } {
  const n = rp.length / k;
  const classOf = new Uint32Array(n);
  const first: number[] = [];
  const buckets = new Map<number, number[]>();
  const same = (p: number, q: number) => {
    for (let j = 0; j < k; j++) if ((compare.rp && rp[p * k + j] !== rp[q * k + j]) || (compare.hm && hm[p * k + j] !== hm[q * k + j])) return false;
    return true;
  };
  const f = new Float64Array(1), w = new Uint32Array(f.buffer);
  for (let p = 0; p < n; p++) {
    let h = 0x811c9dc5;
    for (let j = 0; j < k; j++) {
      for (let s = 0; s < 2; s++) {
        if (!(s === 0 ? compare.rp : compare.hm)) continue;
        f[0] = (s === 0 ? rp[p * k + j] : hm[p * k + j]) + 0; // −0 as 0, as === compares
        h = Math.imul(h ^ w[0], 0x01000193) >>> 0;
        h = Math.imul(h ^ w[1], 0x01000193) >>> 0;
      }
    }
    const list = buckets.get(h);
    const c = list?.find((c) => same(first[c], p));
    if (c !== undefined) classOf[p] = c;
    else {
      classOf[p] = first.length;
      if (list) list.push(first.length); else buckets.set(h, [first.length]);
      first.push(p);
    }
  }
  return { classOf, first };
}

/**
 * Takes RP and HM signatures (n × k each) and the tolerances; returns the groups and pairs
 * `resemble signatures` prints, with memory and output bounded by the pages (see the module
 * comment): O(n·k) for the equal classes, the collision search over distinct signatures, at most
 * `listPairsUpTo`² / 2 pairs a group and `listPairsUpTo` pairs a colliding pair of signatures.
 */
export function signatureReport(rp: Float64Array, hm: Float64Array, k: number, options: SignatureReportOptions = {}): SignatureReport {
  const { listPairsUpTo: limitRaw, verify, ...collision } = options;
  if (verify !== undefined && typeof verify !== 'function') throw optionError('verify', 'a function of two DocIds', verify);
  const { C, D, maxPairs } = collisionParams(collision);
  const limit = intOption('listPairsUpTo', limitRaw, LIST_PAIRS_UP_TO, 0, 1 << 20);
  const n = rp.length / k;
  if (hm.length !== rp.length || !Number.isInteger(n)) throw optionError('hm', `signatures of the shape of rp (${rp.length} values)`, hm.length);
  // a tolerance above 1 never separates two pages (components are in [0, 1]): that signature is not compared
  const { classOf, first } = equalSignatureClasses(rp, hm, k, { rp: !(D > 1), hm: !(C > 1) });
  const m = first.length;
  // pages of each class, in DocId order (CSR)
  const start = new Uint32Array(m + 1);
  for (let p = 0; p < n; p++) start[classOf[p] + 1]++;
  for (let c = 0; c < m; c++) start[c + 1] += start[c];
  const pagesOf = new Uint32Array(n), fill = start.slice(0, m);
  for (let p = 0; p < n; p++) pagesOf[fill[classOf[p]]++] = p;
  const count = (c: number) => start[c + 1] - start[c];
  // the collision search over one point per class
  const rpR = new Float64Array(m * k), hmR = new Float64Array(m * k);
  first.forEach((p, c) => { rpR.set(rp.subarray(p * k, p * k + k), c * k); hmR.set(hm.subarray(p * k, p * k + k), c * k); });
  const candidates = findCollisions(rpR, hmR, k, { C, D, maxPairs });
  const classPairs = verify ? verified(candidates, (x, y) => verify(Math.min(first[x], first[y]), Math.max(first[x], first[y]))) : candidates;
  // equal signatures collide with each other unless a tolerance is 0 (collisions are strict: < C, < D)
  const selfCollide = C > 0 && D > 0;
  const groupOf = new Int32Array(m).fill(-1);
  const classGroups: number[][] = cliqueGroups(m, classPairs).map((g) => g.members.map((x) => x.doc));
  classGroups.forEach((g, i) => { for (const c of g) groupOf[c] = i; });
  if (selfCollide) for (let c = 0; c < m; c++) if (groupOf[c] < 0 && count(c) > 1) { groupOf[c] = classGroups.length; classGroups.push([c]); }

  const keys: number[] = [];
  const pagesA: number[] = [], pagesB: number[] = [];
  const pushPair = (a: number, b: number, na = 1, nb = 1) => {
    if (a > b) { [a, b] = [b, a]; [na, nb] = [nb, na]; }
    keys.push(a * n + b);
    pagesA.push(na); pagesB.push(nb);
  };
  let collidingPairs = 0;
  // groups in order of first member; members once, in DocId order
  const built = classGroups.map((classes) => {
    const docs: number[] = [];
    for (const c of classes) for (let i = start[c]; i < start[c + 1]; i++) docs.push(pagesOf[i]);
    docs.sort((x, y) => x - y);
    const head = docs[0];
    const members: ReportMember[] = docs.map((doc) => ({
      doc,
      rpDistance: rowDistance(rp, k, head, doc),
      hmDistance: rowDistance(hm, k, head, doc),
      copyOf: first[classOf[doc]] === doc ? -1 : first[classOf[doc]],
    }));
    const pairsListed = docs.length <= limit;
    if (pairsListed) for (let i = 0; i < docs.length; i++) for (let j = i + 1; j < docs.length; j++) pushPair(docs[i], docs[j]);
    collidingPairs += (docs.length * (docs.length - 1)) / 2;
    return { members, pairsListed };
  });
  // collisions not inside one group: every page of one signature with every page of the other
  for (let i = 0; i < classPairs.a.length; i++) {
    const ca = classPairs.a[i], cb = classPairs.b[i];
    if (groupOf[ca] >= 0 && groupOf[ca] === groupOf[cb]) continue;
    const na = count(ca), nb = count(cb);
    collidingPairs += na * nb;
    if (na * nb <= limit) {
      for (let x = start[ca]; x < start[ca + 1]; x++) for (let y = start[cb]; y < start[cb + 1]; y++) pushPair(pagesOf[x], pagesOf[y]);
    } else pushPair(first[ca], first[cb], na, nb);
  }
  const order = Uint32Array.from(keys.keys()).sort((x, y) => keys[x] - keys[y]);
  const out: ReportPairs = {
    a: new Uint32Array(order.length), b: new Uint32Array(order.length),
    rpDistance: new Float64Array(order.length), hmDistance: new Float64Array(order.length),
    aPages: new Uint32Array(order.length), bPages: new Uint32Array(order.length),
  };
  order.forEach((x, i) => {
    const a = Math.floor(keys[x] / n), b = keys[x] - a * n;
    out.a[i] = a; out.b[i] = b;
    out.rpDistance[i] = rowDistance(rp, k, a, b);
    out.hmDistance[i] = rowDistance(hm, k, a, b);
    out.aPages[i] = pagesA[x]; out.bPages[i] = pagesB[x];
  });
  built.sort((x, y) => x.members[0].doc - y.members[0].doc);
  return { groups: built, pairs: out, distinct: m, collidingPairs, candidates: candidates.a.length, rejected: candidates.a.length - classPairs.a.length };
}

/** Takes collision pairs and a test; returns the pairs that pass it, in the same order. */
function verified(pairs: CollisionPairs, keep: (a: number, b: number) => boolean): CollisionPairs {
  const at: number[] = [];
  for (let i = 0; i < pairs.a.length; i++) if (keep(pairs.a[i], pairs.b[i])) at.push(i);
  return {
    a: Uint32Array.from(at, (i) => pairs.a[i]), b: Uint32Array.from(at, (i) => pairs.b[i]),
    rpDistance: Float64Array.from(at, (i) => pairs.rpDistance[i]), hmDistance: Float64Array.from(at, (i) => pairs.hmDistance[i]),
  };
}
