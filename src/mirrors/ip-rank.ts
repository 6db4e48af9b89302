/**
 * IP address based algorithms IP4 and IP3 (Bharat et al. §3.1). Hosts are clustered by address
 * (IP4) or by subnet (IP3); clusters are processed smallest first, because a large cluster is
 * more likely virtual hosting than mirroring, and each contributes a bounded number of pairs.
 * A pair's score is 1 / (cluster size − 1): 1 for two hosts on one address, smaller as the
 * cluster grows, so the ranking order is the paper's processing order.
 */
import { intOption, rejectUnknown } from '../errors.js';
import type { HostSet } from './host-set.js';
import { formatIp, subnetKey, type IpAddress } from './ip.js';
import { Random } from '../random.js';
import { DEFAULT_SEED } from './seed.js';
import { pairKey, Ranking } from './ranking.js';

/** Options of `rankIp4` and `rankIp3`. */
export interface IpRankOptions {
  /** Most pairs listed per cluster; a cluster with more is sampled at random (IP4: 200, IP3: 5, as in §3.1). */
  pairsPerCluster?: number;
  /** Seed of the pair sampling (default `DEFAULT_SEED`). */
  seed?: number;
}

/** IP4: takes hosts with IP addresses; returns pairs sharing an address, smaller clusters first, ≤ 200 pairs per cluster. */
export function rankIp4(hosts: HostSet, options: IpRankOptions = {}): Ranking {
  return rankByKey('ip4', hosts, formatIp, options, 200);
}

/** IP3: takes hosts with IP addresses; returns pairs on the same subnet (IPv4 /24, IPv6 /64), ≤ 5 pairs per cluster. */
export function rankIp3(hosts: HostSet, options: IpRankOptions = {}): Ranking {
  return rankByKey('ip3', hosts, subnetKey, options, 5);
}

function rankByKey(algorithm: 'ip4' | 'ip3', hosts: HostSet, keyOf: (ip: IpAddress) => string, options: IpRankOptions, defaultPairs: number): Ranking {
  rejectUnknown(options, ['pairsPerCluster', 'seed'], algorithm);
  const limit = intOption('pairsPerCluster', options.pairsPerCluster, defaultPairs, 1, 2 ** 31);
  const seed = intOption('seed', options.seed, DEFAULT_SEED, 0, 2 ** 32 - 1);
  const clusters = new Map<string, number[]>();
  for (let h = 0; h < hosts.size; h++) {
    const keys = new Set(hosts.ips[h].map(keyOf));
    for (const k of keys) {
      const c = clusters.get(k);
      if (c) c.push(h);
      else clusters.set(k, [h]);
    }
  }
  const order = [...clusters.entries()].filter(([, c]) => c.length >= 2).sort((x, y) => x[1].length - y[1].length || (x[0] < y[0] ? -1 : 1));
  const a: number[] = [], b: number[] = [], score: number[] = [], cluster: string[] = [], size: number[] = [];
  const seen = new Set<number>();
  for (const [key, members] of order) {
    const rng = Random.stream(seed, `${algorithm}:${key}`);
    const c = members.length;
    const pairs: Array<[number, number]> = [];
    if ((c * (c - 1)) / 2 <= limit) {
      for (let i = 0; i < c; i++) for (let j = i + 1; j < c; j++) pairs.push([members[i], members[j]]);
    } else {
      const picked = new Set<number>();
      while (picked.size < limit) {
        const i = rng.int(c), j = rng.int(c);
        if (i === j) continue;
        const k = Math.min(i, j) * c + Math.max(i, j);
        if (picked.has(k)) continue;
        picked.add(k);
        pairs.push([members[Math.min(i, j)], members[Math.max(i, j)]]);
      }
      pairs.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    }
    for (const [x, y] of pairs) {
      const k = pairKey(x, y, hosts.size);
      // A host with several addresses can meet the same partner twice; its smaller cluster counts.
      if (seen.has(k)) continue;
      seen.add(k);
      a.push(x);
      b.push(y);
      score.push(1 / (c - 1));
      cluster.push(key);
      size.push(c);
    }
  }
  const field = algorithm === 'ip4' ? 'ip' : 'subnet';
  return new Ranking(algorithm, hosts, Uint32Array.from(a), Uint32Array.from(b), Float64Array.from(score), (i) => ({ [field]: cluster[i], clusterSize: size[i] }));
}
