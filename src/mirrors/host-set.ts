/**
 * The input of every mirror algorithm: hosts (hostname plus port, as the paper's §1 defines a
 * host), the distinct paths seen on each, and their IP addresses. Hosts are numbered in sorted
 * order of their names, so host ids, and every tie broken by them, do not depend on input order.
 */
import type { ReadError } from '../graph/document.js';
import { intOption, rejectUnknown } from '../errors.js';
import { normalizeParsed, parseUrl } from '../graph/url.js';
import { hostLiteralIp, looksLikeIp, parseIp, type IpAddress } from './ip.js';

/**
 * Default minimum number of distinct URLs for a host to take part. The paper keeps hosts with
 * at least 100 URLs (§2) on a 179-million-URL crawl; a small crawl holds few hosts that large,
 * so the default is 5. Pass `minUrls: 100` to follow the paper.
 */
export const DEFAULT_MIN_URLS = 5;

/** Options of {@link HostSet.fromUrls}. */
export interface HostSetOptions {
  /** Hosts with fewer distinct URLs are dropped (default `DEFAULT_MIN_URLS`; the paper used 100). */
  minUrls?: number;
  /** Host → IP addresses (text); malformed addresses are reported and skipped. Default: none. */
  ips?: ReadonlyMap<string, readonly string[]>;
  /** Where each URL came from, parallel to `urls`, for error reports (default `line N`). */
  locations?: readonly string[];
  /** The input's name for error reports (default `urls`). */
  source?: string;
}

/** The parts of a URL the mirror algorithms use: scheme, host (lowercase, with port) and path (no leading '/', query kept). */
export interface UrlParts {
  scheme: string;
  host: string;
  path: string;
}

const SCHEMES = new Set(['http:', 'https:', 'ftp:']);

/** Splits an absolute http/https/ftp URL (normalized as the readers do) into scheme, host and path; undefined when unusable. */
export function splitUrl(url: string): UrlParts | undefined {
  const u = parseUrl(url.trim());
  if (u === undefined) return undefined;
  normalizeParsed(u);
  if (!SCHEMES.has(u.protocol) || u.host === '') return undefined;
  const host = u.host.endsWith('.') ? u.host.slice(0, -1) : u.host;
  return { scheme: u.protocol.slice(0, -1), host, path: u.pathname.slice(1) + u.search };
}

/** Normalizes a host name as a key of an IP map: lowercase, no trailing dot. */
export function hostKey(host: string): string {
  const h = host.trim().toLowerCase();
  return h.endsWith('.') ? h.slice(0, -1) : h;
}

/** Hosts with their distinct paths and IP addresses; host ids are positions in sorted order. */
export class HostSet {
  /** Host names (lowercase, `name[:port]`), sorted. */
  readonly hosts: string[];
  /** The scheme first seen for each host, used to rebuild URLs. */
  readonly schemes: string[];
  /** Each host's distinct paths, sorted (code-unit order), without the leading '/'. */
  readonly paths: string[][];
  /** Number of distinct URLs (paths) per host: the paper's p, n1, n2. */
  readonly urlCount: Uint32Array;
  /** Each host's IP addresses: from the IP map, else its own address when the host is an IP literal. */
  readonly ips: IpAddress[][];
  /** Unparsable URLs and malformed IP addresses, each with its location; they were skipped. */
  readonly errors: ReadError[];
  /** Hosts seen but dropped for having fewer than `minUrls` URLs. */
  readonly droppedHosts: number;
  private readonly ids: Map<string, number>;

  private constructor(hosts: string[], schemes: string[], paths: string[][], ips: IpAddress[][], errors: ReadError[], dropped: number) {
    this.hosts = hosts;
    this.schemes = schemes;
    this.paths = paths;
    this.urlCount = Uint32Array.from(paths, (p) => p.length);
    this.ips = ips;
    this.errors = errors;
    this.droppedHosts = dropped;
    this.ids = new Map(hosts.map((h, i) => [h, i]));
  }

  /** Number of hosts. */
  get size(): number {
    return this.hosts.length;
  }

  /** Takes a host name; returns its id, or -1 when absent. */
  id(host: string): number {
    return this.ids.get(hostKey(host)) ?? -1;
  }

  /** Takes a host id and a path; returns the absolute URL. */
  url(host: number, path: string): string {
    return `${this.schemes[host]}://${this.hosts[host]}/${path}`;
  }

  /** Takes URLs (and optional host → IPs); returns the hosts with at least `minUrls` distinct URLs, errors reported. */
  static fromUrls(urls: Iterable<string>, options: HostSetOptions = {}): HostSet {
    rejectUnknown(options, ['minUrls', 'ips', 'locations', 'source'], 'HostSet.fromUrls');
    const minUrls = intOption('minUrls', options.minUrls, DEFAULT_MIN_URLS, 1, 2 ** 31);
    const source = options.source ?? 'urls';
    const errors: ReadError[] = [];
    const byHost = new Map<string, { scheme: string; paths: Set<string> }>();
    let i = 0;
    for (const url of urls) {
      i++;
      const parts = splitUrl(url);
      if (!parts) {
        errors.push({ source, location: options.locations?.[i - 1] ?? `line ${i}`, code: 'E_INPUT', message: `not an absolute http, https or ftp URL: ${JSON.stringify(url.slice(0, 200))}` });
        continue;
      }
      let entry = byHost.get(parts.host);
      if (!entry) byHost.set(parts.host, (entry = { scheme: parts.scheme, paths: new Set() }));
      entry.paths.add(parts.path);
    }
    const ipMap = new Map<string, IpAddress[]>();
    for (const [host, list] of options.ips ?? []) {
      const key = hostKey(host);
      const parsed = ipMap.get(key) ?? [];
      for (const text of list) {
        const ip = parseIp(text);
        if (!ip) {
          errors.push({ source, location: `ip of ${key}`, code: 'E_INPUT', message: `malformed IP address ${JSON.stringify(text)}` });
        } else if (!parsed.some((p) => p.version === ip.version && p.parts.every((x, j) => x === ip.parts[j]))) {
          parsed.push(ip);
        }
      }
      ipMap.set(key, parsed);
    }
    const names = [...byHost.keys()].filter((h) => byHost.get(h)!.paths.size >= minUrls).sort();
    const schemes: string[] = [];
    const paths: string[][] = [];
    const ips: IpAddress[][] = [];
    for (const h of names) {
      const e = byHost.get(h)!;
      schemes.push(e.scheme);
      paths.push([...e.paths].sort());
      const bare = h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.replace(/:\d+$/, '');
      // §3.1 reads a host's IP from the name server; a host written as an address is its own IP.
      const literal = hostLiteralIp(h);
      ips.push(ipMap.get(h) ?? ipMap.get(bare) ?? (literal ? [literal] : []));
    }
    return new HostSet(names, schemes, paths, ips, errors, byHost.size - names.length);
  }
}

/** Result of reading a hosts file: host → IP addresses, plus the lines that could not be used. */
export interface HostsFile {
  ips: Map<string, string[]>;
  errors: ReadError[];
}

/**
 * Reads host → IP lines: `host ip [ip…]` or `/etc/hosts` style `ip host [alias…]`, separated by
 * spaces, tabs or commas, `#` comments. A token that looks like an address but does not parse is
 * reported with its line and skipped; the rest of the line is kept.
 */
export function parseHostsFile(text: string, source = 'hosts'): HostsFile {
  const ips = new Map<string, string[]>();
  const errors: ReadError[] = [];
  const lines = text.split(/\r?\n/);
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n].replace(/#.*/, '').trim();
    if (line === '') continue;
    const hosts: string[] = [];
    const addrs: string[] = [];
    let malformed = false;
    for (const token of line.split(/[\s,]+/)) {
      if (looksLikeIp(token)) {
        if (parseIp(token)) {
          addrs.push(token);
        } else {
          malformed = true;
          errors.push({ source, location: `line ${n + 1}`, code: 'E_INPUT', message: `malformed IP address ${JSON.stringify(token)}` });
        }
      } else hosts.push(hostKey(token));
    }
    if (hosts.length === 0 || addrs.length === 0) {
      if (!malformed) {
        errors.push({ source, location: `line ${n + 1}`, code: 'E_INPUT', message: `expected a host and at least one IP address, got ${JSON.stringify(line.slice(0, 200))}` });
      }
      continue;
    }
    for (const h of hosts) {
      const list = ips.get(h) ?? [];
      for (const a of addrs) if (!list.includes(a)) list.push(a);
      ips.set(h, list);
    }
  }
  return { ips, errors };
}
