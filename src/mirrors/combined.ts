/**
 * combined (Bharat et al. §4.2.2): the union of the top results of several rankings (the paper:
 * IP4, prefix, hconn2, paths and hosts, 100,000 each), ordered by the number of rankings that
 * found a pair, ties by the best rank in any of them.
 */
import { intOption, rejectUnknown, ResembleError } from '../errors.js';
import type { HostSet } from './host-set.js';
import { Ranking } from './ranking.js';

/** The rankings the paper combines. */
export const COMBINED_COMPONENTS = ['ip4', 'prefix', 'hconn2', 'paths', 'hosts'] as const;

/** Options of `rankCombined`. */
export interface CombinedOptions {
  /** Pairs taken from the top of each ranking (default `combinedDepth`). */
  depth?: number;
}

/**
 * The default depth: 100,000 pairs as in §4.2.2, but at most half the number of hosts (at least
 * 10). The paper's depth was 0.43 of its 233,035 hosts; on a small crawl 100,000 would take every
 * pair each ranking lists, and a vote would no longer say that a ranking put the pair near its top.
 */
export function combinedDepth(hostCount: number): number {
  return Math.min(100000, Math.max(10, Math.ceil(hostCount / 2)));
}

/** Takes rankings over the same hosts; returns their union ranked by votes, ties by best rank (then host ids). Score = votes. */
export function rankCombined(hosts: HostSet, rankings: readonly Ranking[], options: CombinedOptions = {}): Ranking {
  rejectUnknown(options, ['depth'], 'combined');
  const depth = intOption('depth', options.depth, combinedDepth(hosts.size), 1, 2 ** 31);
  const index = new Map<number, number>();
  const a: number[] = [], b: number[] = [], votes: number[] = [], best: number[] = [];
  const ranks: Array<Record<string, number>> = [];
  for (const r of rankings) {
    if (r.hosts !== hosts) throw new ResembleError('E_INPUT', `rankings to combine must share one host set; ${r.algorithm} does not`, { algorithm: r.algorithm });
    const n = Math.min(depth, r.length);
    for (let i = 0; i < n; i++) {
      const key = r.key(i);
      let k = index.get(key);
      if (k === undefined) {
        k = a.length;
        index.set(key, k);
        a.push(r.a[i]);
        b.push(r.b[i]);
        votes.push(0);
        best.push(Infinity);
        ranks.push({});
      }
      if (ranks[k][r.algorithm] !== undefined) continue;
      ranks[k][r.algorithm] = i + 1;
      votes[k]++;
      if (i + 1 < best[k]) best[k] = i + 1;
    }
  }
  const order = Uint32Array.from(a, (_, i) => i).sort((x, y) => votes[y] - votes[x] || best[x] - best[y] || a[x] - a[y] || b[x] - b[y]);
  return new Ranking(
    'combined',
    hosts,
    Uint32Array.from(order, (i) => a[i]),
    Uint32Array.from(order, (i) => b[i]),
    Float64Array.from(order, (i) => votes[i]),
    (i) => ({ votes: votes[order[i]], bestRank: best[order[i]], ranks: ranks[order[i]] }),
    (i) => Object.keys(ranks[order[i]]),
  );
}
