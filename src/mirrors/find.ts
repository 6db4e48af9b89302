/**
 * One entry point over the mirror algorithms: builds the host set and link table from plain
 * inputs (URLs, host → IPs, links) and runs the chosen algorithm, or all of them.
 */
import { enumOption, intOption, rejectUnknown, ResembleError } from '../errors.js';
import { COMBINED_COMPONENTS, rankCombined } from './combined.js';
import { rankConn, type ConnOptions } from './conn.js';
import { rankHconn } from './hconn.js';
import { HostSet } from './host-set.js';
import type { HostContent } from './content.js';
import { rankHybrid, type ContentEvidenceFn, type HybridOptions } from './hybrid.js';
import { rankIp3, rankIp4 } from './ip-rank.js';
import { LinkTable } from './links.js';
import { DEFAULT_SEED } from './seed.js';
import { ALGORITHMS, type AlgorithmName, type Ranking } from './ranking.js';
import { rankHosts, rankPaths, rankPrefix, rankShingles } from './url-rank.js';

/** Plain inputs of the mirror algorithms; everything but `urls` is optional. */
export interface MirrorInput {
  /** Every URL known (crawled or only seen as a link target). */
  urls: Iterable<string>;
  /** Where each URL came from, for error reports. */
  locations?: readonly string[];
  /** Host → IP addresses (IP4, IP3). */
  ips?: ReadonlyMap<string, readonly string[]>;
  /** Page links as (source URL, target URL) (conn, hconn1, hconn2). */
  links?: Iterable<readonly [string, string]>;
  /** Host-level links as (source host, target host, count), when page links are not at hand (hconn only). */
  hostEdges?: Iterable<readonly [string, string, number]>;
  /** Per-host page sketches, or a content evidence function (hybrid). */
  content?: HostContent<unknown> | ContentEvidenceFn;
}

/** Options of {@link rankMirrors} and {@link rankAll}; every default follows the paper unless said. */
export interface RankMirrorsOptions {
  /** The ranking to return (default 'combined'). */
  algorithm?: AlgorithmName;
  /** Minimum distinct URLs per host (default 5; the paper: 100). */
  minUrls?: number;
  /** Seed of every random choice (default `DEFAULT_SEED`). */
  seed?: number;
  /** Term document-frequency limits (defaults 100 and 25). */
  maxDf?: number;
  restrictDf?: number;
  /** Pairs per IP cluster (defaults 200 for IP4, 5 for IP3). */
  ip4Pairs?: number;
  ip3Pairs?: number;
  /** conn's n, f, m (defaults 10, 0.9, 0.75). */
  conn?: Pick<ConnOptions, 'n' | 'f' | 'm'>;
  /** Pairs taken from each ranking into combined (default 100000, at most half the hosts: see `combinedDepth`). */
  combinedDepth?: number;
  /** hybrid's content comparison (see {@link HybridOptions}). */
  hybrid?: Omit<HybridOptions, 'components'>;
}

const KNOWN = ['algorithm', 'minUrls', 'seed', 'maxDf', 'restrictDf', 'ip4Pairs', 'ip3Pairs', 'conn', 'combinedDepth', 'hybrid'];

/** Takes plain inputs; returns the host set, its link table and the chosen ranking. */
export function rankMirrors(input: MirrorInput, options: RankMirrorsOptions = {}): { hosts: HostSet; links: LinkTable; ranking: Ranking } {
  rejectUnknown(options, KNOWN, 'rankMirrors');
  const algorithm = enumOption('algorithm', options.algorithm, 'combined', ALGORITHMS);
  const hosts = HostSet.fromUrls(input.urls, { minUrls: options.minUrls, ips: input.ips, locations: input.locations });
  const links = linkTableOf(hosts, input);
  const all = rankAll(hosts, links, input.content, options, [algorithm]);
  return { hosts, links, ranking: all[algorithm]! };
}

/** Takes hosts and the link inputs; returns the link table (page links first, else host edges, else empty). */
export function linkTableOf(hosts: HostSet, input: Pick<MirrorInput, 'links' | 'hostEdges'>): LinkTable {
  if (input.links) return LinkTable.fromPairs(hosts, input.links);
  if (input.hostEdges) return LinkTable.fromHostEdges(hosts, input.hostEdges);
  return LinkTable.fromPairs(hosts, []);
}

/**
 * Takes hosts, links, optional content and the algorithms wanted; returns their rankings (and
 * those they depend on: combined needs its five, hybrid needs combined). By default all of them,
 * hybrid only when content is given; asking for hybrid without content is rejected.
 */
export function rankAll(
  hosts: HostSet,
  links: LinkTable,
  content: HostContent<unknown> | ContentEvidenceFn | undefined,
  options: RankMirrorsOptions = {},
  wanted?: readonly AlgorithmName[],
): Partial<Record<AlgorithmName, Ranking>> {
  rejectUnknown(options, KNOWN, 'rankAll');
  const seed = intOption('seed', options.seed, DEFAULT_SEED, 0, 2 ** 32 - 1);
  const term = { maxDf: options.maxDf, restrictDf: options.restrictDf, seed };
  const out: Partial<Record<AlgorithmName, Ranking>> = {};
  const get = (name: AlgorithmName): Ranking => {
    const have = out[name];
    if (have) return have;
    let r: Ranking;
    switch (name) {
      case 'ip4': r = rankIp4(hosts, { pairsPerCluster: options.ip4Pairs, seed }); break;
      case 'ip3': r = rankIp3(hosts, { pairsPerCluster: options.ip3Pairs, seed }); break;
      case 'hosts': r = rankHosts(hosts, term); break;
      case 'paths': r = rankPaths(hosts, term); break;
      case 'prefix': r = rankPrefix(hosts, term); break;
      case 'shingles': r = rankShingles(hosts, term); break;
      case 'conn': r = rankConn(hosts, links, { ...term, ...options.conn }); break;
      case 'hconn1': r = rankHconn(1, hosts, links, { seed }); break;
      case 'hconn2': r = rankHconn(2, hosts, links, { seed }); break;
      case 'combined': r = rankCombined(hosts, COMBINED_COMPONENTS.map(get), { depth: options.combinedDepth }); break;
      case 'hybrid': {
        if (!content) throw new ResembleError('E_INPUT', 'hybrid needs page content (per-host sketches keyed by path)', { algorithm: 'hybrid' });
        const used = COMBINED_COMPONENTS.filter((c) => get(c).length > 0).length;
        r = rankHybrid(hosts, get('combined'), content, { ...options.hybrid, components: Math.max(1, used) });
        break;
      }
    }
    out[name] = r;
    return r;
  };
  for (const name of wanted ?? ALGORITHMS.filter((x) => x !== 'hybrid' || content)) get(enumOption('algorithm', name, 'combined', ALGORITHMS));
  return out;
}
