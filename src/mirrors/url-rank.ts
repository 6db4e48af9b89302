/**
 * URL string based algorithms hosts, paths, prefix and shingles (Bharat et al. §3.2): term
 * vector matching with the paper's term selection, document-frequency limits and weights.
 */
import { intOption, rejectUnknown } from '../errors.js';
import type { HostSet } from './host-set.js';
import { DEFAULT_SEED } from './seed.js';
import { Ranking, type AlgorithmName } from './ranking.js';
import { hostTerms, prefixTerms, selectionSize, shingleTerms, termLength } from './terms.js';
import { buildTermVectors, cosinePairs, type TermVectors } from './vectors.js';
import { hostsWeight, pathsWeight, sizeScale } from './weights.js';

/** Options of the term-vector algorithms. */
export interface TermRankOptions {
  /** Terms in more than maxDf hosts are rejected (default 100, §3.2.1). */
  maxDf?: number;
  /** Terms in more than restrictDf hosts are kept in only restrictDf random hosts' vectors (default 25). */
  restrictDf?: number;
  /** Seed of the restriction (default `DEFAULT_SEED`). */
  seed?: number;
}

const KNOWN = ['maxDf', 'restrictDf', 'seed'];

/** Validated term-vector options with their defaults. */
export function termOptions(options: TermRankOptions | undefined, where: string): Required<TermRankOptions> {
  rejectUnknown(options, KNOWN, where);
  const o = options ?? {};
  const maxDf = intOption('maxDf', o.maxDf, 100, 2, 2 ** 31);
  const restrictDf = intOption('restrictDf', o.restrictDf, 25, 2, maxDf);
  return { maxDf, restrictDf, seed: intOption('seed', o.seed, DEFAULT_SEED, 0, 2 ** 32 - 1) };
}

/** hosts (§3.2.1): takes hosts; returns pairs ranked by cosine over hostname substrings weighted log(len) / (1 + log df). */
export function rankHosts(hosts: HostSet, options?: TermRankOptions): Ranking {
  const o = termOptions(options, 'hosts');
  const v = buildTermVectors(hosts.size, (h) => hostTerms(hosts.hosts[h]), (df, t) => hostsWeight(termLength(t), df), o, 'hosts');
  return rankVectors('hosts', hosts, v, false);
}

/** paths (§3.2.2): takes hosts; returns pairs ranked by cosine over whole paths weighted 1 + log(maxdf / df). */
export function rankPaths(hosts: HostSet, options?: TermRankOptions): Ranking {
  const o = termOptions(options, 'paths');
  return rankVectors('paths', hosts, pathVectors(hosts, o), false);
}

/** The paths algorithm's term vectors (conn reuses them). */
export function pathVectors(hosts: HostSet, o: Required<TermRankOptions>): TermVectors {
  return buildTermVectors(hosts.size, (h) => hosts.paths[h], (df, _t, maxdf) => pathsWeight(df, maxdf), o, 'paths');
}

/** prefix (§3.2.3): takes hosts; returns pairs ranked by cosine over the 10·log p most frequent path prefixes, size-scaled. */
export function rankPrefix(hosts: HostSet, options?: TermRankOptions): Ranking {
  const o = termOptions(options, 'prefix');
  const v = buildTermVectors(hosts.size, (h) => hosts.paths[h].flatMap(prefixTerms), (df, _t, maxdf) => pathsWeight(df, maxdf), o, 'prefix', (h) => selectionSize(hosts.urlCount[h]));
  return rankVectors('prefix', hosts, v, true);
}

/** shingles (§3.2.4): takes hosts; returns pairs ranked by cosine over the 10·log p most frequent positional word bigrams, size-scaled. */
export function rankShingles(hosts: HostSet, options?: TermRankOptions): Ranking {
  const o = termOptions(options, 'shingles');
  const v = buildTermVectors(hosts.size, (h) => hosts.paths[h].flatMap(shingleTerms), (df, _t, maxdf) => pathsWeight(df, maxdf), o, 'shingles', (h) => selectionSize(hosts.urlCount[h]));
  return rankVectors('shingles', hosts, v, true);
}

/** Takes term vectors; returns the pairs ranked by cosine (times the §3.2.3 size factor when `scaled`), with shared terms as evidence. */
export function rankVectors(algorithm: AlgorithmName, hosts: HostSet, v: TermVectors, scaled: boolean): Ranking {
  const p = cosinePairs(v);
  const score = new Float64Array(p.cosine.length);
  for (let i = 0; i < score.length; i++) {
    score[i] = scaled ? p.cosine[i] * sizeScale(hosts.urlCount[p.a[i]], hosts.urlCount[p.b[i]]) : p.cosine[i];
  }
  return Ranking.sorted(algorithm, hosts, p.a, p.b, score, (i) => ({
    cosine: p.cosine[i],
    ...(scaled ? { scale: sizeScale(hosts.urlCount[p.a[i]], hosts.urlCount[p.b[i]]) } : {}),
    sharedTerms: p.shared[i],
    topTerms: topSharedTerms(v, p.a[i], p.b[i], 5),
  }));
}

/** Takes two hosts; returns up to `k` of their shared terms, heaviest first (ties by term id). */
export function topSharedTerms(v: TermVectors, x: number, y: number, k: number): string[] {
  const found: Array<[number, number]> = [];
  let i = v.offsets[x], j = v.offsets[y];
  while (i < v.offsets[x + 1] && j < v.offsets[y + 1]) {
    if (v.termIds[i] < v.termIds[j]) i++;
    else if (v.termIds[j] < v.termIds[i]) j++;
    else {
      if (v.weights[i] !== 0) found.push([v.termIds[i], v.weights[i]]);
      i++;
      j++;
    }
  }
  found.sort((p, q) => q[1] - p[1] || p[0] - q[0]);
  return found.slice(0, k).map(([t]) => v.terms[t]);
}
