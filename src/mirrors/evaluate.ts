/**
 * Evaluation of mirror rankings (Bharat et al. §4.2): precision at rank (Figure 1), relative
 * recall at rank (Figure 3) and precision against recall (Figure 4), judged by a truth file of
 * mirror pairs or by the pooled verdicts of the mirroring test.
 */
import type { ReadError } from '../graph/document.js';
import { intOption, rejectUnknown } from '../errors.js';
import { hostKey, splitUrl, type HostSet } from './host-set.js';
import type { MirroringResult } from './verdict.js';
import { MirrorPool } from './pool.js';
import type { Ranking } from './ranking.js';

/** Judges a host pair: 1 a mirror, 0 not a mirror (or not rated: §4.2.2 counts those as mismatches), -1 left out (undetermined). */
export type Judge = (a: number, b: number) => 1 | 0 | -1;

/** A truth file read: mirror pairs by host name, and the lines that could not be used. */
export interface TruthFile {
  pairs: Array<[string, string]>;
  errors: ReadError[];
}

/**
 * Reads mirror pairs, one per line: `hostA hostB` (spaces, tabs or a comma; URLs are reduced to
 * their host), or a JSON object `{"a": …, "b": …}` (a line with `"mirror": false` is skipped, so
 * the CLI's own output can serve as truth). `#` starts a comment.
 */
export function parseTruthFile(text: string, source = 'truth'): TruthFile {
  const pairs: Array<[string, string]> = [];
  const errors: ReadError[] = [];
  const lines = text.split(/\r?\n/);
  const hostOf = (s: string) => (s.includes('/') ? splitUrl(s)?.host : hostKey(s));
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n].trim();
    if (line === '' || line.startsWith('#')) continue;
    let x: string | undefined, y: string | undefined;
    if (line.startsWith('{')) {
      try {
        const o = JSON.parse(line) as Record<string, unknown>;
        if (o.mirror === false) continue;
        if (typeof o.a === 'string' && typeof o.b === 'string') [x, y] = [hostOf(o.a), hostOf(o.b)];
      } catch {
        /* reported below */
      }
    } else {
      const t = line.replace(/#.*/, '').trim().split(/[\s,]+/);
      if (t.length === 2) [x, y] = [hostOf(t[0]), hostOf(t[1])];
    }
    if (x && y) pairs.push([x, y]);
    else errors.push({ source, location: `line ${n + 1}`, code: 'E_INPUT', message: `expected two hosts (or {"a","b"}), got ${JSON.stringify(line.slice(0, 200))}` });
  }
  return { pairs, errors };
}

/** Takes hosts and mirror pairs by name; returns a judge over their transitive closure, and the names not among the hosts. */
export function truthJudge(hosts: HostSet, pairs: Iterable<readonly [string, string]>): { judge: Judge; pool: MirrorPool; unknownHosts: string[] } {
  const pool = new MirrorPool(hosts.size);
  const unknown = new Set<string>();
  for (const [x, y] of pairs) {
    const a = hosts.id(x), b = hosts.id(y);
    if (a < 0) unknown.add(x);
    if (b < 0) unknown.add(y);
    if (a >= 0 && b >= 0) pool.addMirror(a, b);
  }
  return { judge: (a, b) => (pool.find(a) === pool.find(b) ? 1 : 0), pool, unknownHosts: [...unknown].sort() };
}

/**
 * Takes the pool of mirroring-test verdicts and the verified rankings with their results; returns
 * a judge: mirrors by transitive closure, undetermined pairs left out (§4.1.2 removes failures
 * from the rankings), everything else a mismatch.
 */
export function poolJudge(pool: MirrorPool, verified: ReadonlyArray<{ ranking: Ranking; results: readonly MirroringResult[] }> = []): Judge {
  const failed = new Set<number>();
  for (const { ranking, results } of verified) {
    results.forEach((r, i) => {
      if (r.verdict === 'undetermined') failed.add(ranking.key(i));
    });
  }
  const n = pool.hostCount;
  return (a, b) => {
    if (pool.find(a) === pool.find(b)) return 1;
    return failed.has(a < b ? a * n + b : b * n + a) ? -1 : 0;
  };
}

/** One ranking's curves, indexed by rank − 1 (after pairs judged -1 were removed). */
export interface Curve {
  algorithm: string;
  /** Mirrors among the top k, k = index + 1. */
  found: Uint32Array;
  /** Precision at rank k (Figure 1). */
  precision: Float64Array;
  /** Mirrors found at rank k over the distinct mirrors in the union of all rankings' top k (Figure 3, §4.2.2). */
  relativeRecall: Float64Array;
  /** Mirrors found at rank k over all mirrors known to the evaluation (Figure 4's x axis). */
  recall: Float64Array;
}

/** Options of {@link evaluateRankings}. */
export interface EvaluateOptions {
  /** Deepest rank evaluated (default: each ranking's length). */
  maxRank?: number;
  /**
   * The number of mirrors recall is measured against (default: the distinct mirrors in the union
   * of all evaluated rankings, the paper's pool; pass a truth file's pair count for absolute recall).
   */
  total?: number;
}

/** Takes rankings over one host set and a judge; returns each ranking's precision, relative recall and recall by rank. */
export function evaluateRankings(rankings: readonly Ranking[], judge: Judge, options: EvaluateOptions = {}): { curves: Curve[]; total: number } {
  rejectUnknown(options, ['maxRank', 'total'], 'evaluateRankings');
  const maxRank = intOption('maxRank', options.maxRank, 2 ** 31, 1, 2 ** 31);
  const lists = rankings.map((r) => {
    const keys: number[] = [], hit: number[] = [];
    for (let i = 0; i < r.length && keys.length < maxRank; i++) {
      const j = judge(r.a[i], r.b[i]);
      if (j < 0) continue;
      keys.push(r.key(i));
      hit.push(j);
    }
    return { keys, hit };
  });
  const depth = Math.max(0, ...lists.map((l) => l.keys.length));
  const union = new Set<number>();
  const unionAt = new Uint32Array(depth);
  for (let k = 0; k < depth; k++) {
    for (const l of lists) if (k < l.keys.length && l.hit[k]) union.add(l.keys[k]);
    unionAt[k] = union.size;
  }
  const total = intOption('total', options.total, union.size, 0, 2 ** 31);
  const curves = rankings.map((r, x) => {
    const { hit } = lists[x];
    const n = hit.length;
    const found = new Uint32Array(n), precision = new Float64Array(n), relativeRecall = new Float64Array(n), recall = new Float64Array(n);
    let f = 0;
    for (let k = 0; k < n; k++) {
      f += hit[k];
      found[k] = f;
      precision[k] = f / (k + 1);
      relativeRecall[k] = unionAt[k] > 0 ? f / unionAt[k] : 0;
      recall[k] = total > 0 ? f / total : 0;
    }
    return { algorithm: r.algorithm, found, precision, relativeRecall, recall };
  });
  return { curves, total };
}

/** Takes a curve and a recall level; returns the precision at the first rank reaching it, or undefined when never reached. */
export function precisionAtRecall(curve: Curve, recall: number): number | undefined {
  for (let k = 0; k < curve.recall.length; k++) if (curve.recall[k] >= recall - 1e-12) return curve.precision[k];
  return undefined;
}
