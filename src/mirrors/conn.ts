/**
 * conn (Bharat et al. §3.3): the paths ranking filtered by link structure. For each pair, the n
 * common paths of highest out-degree on each host are tested; a path is equivalent when a
 * fraction f of the union of its two out-link sets is common to both, and the pair stays when a
 * fraction m of the tested paths are equivalent.
 */
import { intOption, numberOption, rejectUnknown } from '../errors.js';
import type { HostSet } from './host-set.js';
import type { LinkTable } from './links.js';
import { Ranking } from './ranking.js';
import { pathVectors, rankVectors, termOptions, type TermRankOptions } from './url-rank.js';

/** Options of `rankConn`: the paths options plus the link test's n, f and m. */
export interface ConnOptions extends TermRankOptions {
  /** Common paths of highest out-degree taken from each host (default 10). */
  n?: number;
  /** Fraction of the union of out-links that must be common for a path to be equivalent (default 0.9). */
  f?: number;
  /** Fraction of tested paths that must be equivalent for the pair to stay (default 0.75). */
  m?: number;
}

/** Result of testing one host pair's common paths. */
export interface LinkTest {
  tested: number;
  equivalent: number;
}

/**
 * Takes two hosts' out-link tables; tests up to n common paths of highest out-degree from each
 * (the union of both choices, each path once). Only paths whose links are known on both hosts
 * count as common.
 */
export function linkTest(x: Map<string, string[]>, y: Map<string, string[]>, n: number, f: number): LinkTest {
  const [small, large] = x.size <= y.size ? [x, y] : [y, x];
  const common: string[] = [];
  for (const p of small.keys()) if (large.has(p)) common.push(p);
  const top = (m: Map<string, string[]>) =>
    [...common].sort((p, q) => m.get(q)!.length - m.get(p)!.length || (p < q ? -1 : p > q ? 1 : 0)).slice(0, n);
  const chosen = [...new Set([...top(x), ...top(y)])];
  let equivalent = 0;
  for (const p of chosen) {
    const l1 = x.get(p)!, l2 = y.get(p)!;
    let i = 0, j = 0, both = 0;
    while (i < l1.length && j < l2.length) {
      if (l1[i] < l2[j]) i++;
      else if (l2[j] < l1[i]) j++;
      else {
        both++;
        i++;
        j++;
      }
    }
    const union = l1.length + l2.length - both;
    if (both >= f * union) equivalent++;
  }
  return { tested: chosen.length, equivalent };
}

/**
 * conn: takes hosts and their links; returns the paths ranking without the pairs that fail the
 * link test. A pair with no common path whose links are known on both hosts cannot pass: conn
 * asks for link evidence, so without links it returns nothing.
 */
export function rankConn(hosts: HostSet, links: LinkTable, options: ConnOptions = {}): Ranking {
  rejectUnknown(options, ['maxDf', 'restrictDf', 'seed', 'n', 'f', 'm'], 'conn');
  const { n: nOpt, f: fOpt, m: mOpt, ...rest } = options;
  const n = intOption('n', nOpt, 10, 1, 10000);
  const f = numberOption('f', fOpt, 0.9, 0, 1);
  const m = numberOption('m', mOpt, 0.75, 0, 1);
  const o = termOptions(rest, 'conn');
  const paths = rankVectors('paths', hosts, pathVectors(hosts, o), false);
  const keep: number[] = [];
  const tests: LinkTest[] = [];
  for (let i = 0; i < paths.length; i++) {
    const t = linkTest(links.outLinks[paths.a[i]], links.outLinks[paths.b[i]], n, f);
    if (t.tested > 0 && t.equivalent >= m * t.tested) {
      keep.push(i);
      tests.push(t);
    }
  }
  return new Ranking(
    'conn',
    hosts,
    Uint32Array.from(keep, (i) => paths.a[i]),
    Uint32Array.from(keep, (i) => paths.b[i]),
    Float64Array.from(keep, (i) => paths.score[i]),
    (k) => ({ ...paths.evidence(keep[k]), testedPaths: tests[k].tested, equivalentPaths: tests[k].equivalent }),
  );
}
