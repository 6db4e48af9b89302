/**
 * What a web crawl holds besides its pages, found as it is read: URL variants of a page (joined to
 * it, with the rule that joins them: url-variants.ts), the same URL fetched again (a later
 * sweep's re-capture), host aliases (`www.` and `https:`), soft-404s (a host answering 200 with
 * the same body for many unrelated paths: a parked domain, a hoster's stock page, a page of its
 * own naming the path), redirects (edges of the link graph: chains followed, loops reported) and
 * the text records that are not pages, by content type.
 *
 * A `CrawlPhenomena` is fed each document as it is read (`observe`) and each skip (`skipped`,
 * through the readers' `onSkip`); `report()` says what it found. It keeps per page its URL, host
 * and a 20-byte hash of its body (with the page's own path taken out, so a not-found page naming
 * the path hashes the same for every path), about 100 bytes a page; hashing costs one SHA-1 pass
 * over each page.
 */
import { createHash } from 'node:crypto';
import type { Document, ReadError } from '../graph/document.js';
import { parseUrl } from '../graph/url.js';
import { intOption, rejectUnknown } from '../errors.js';
import type { SkipEvent } from './options.js';
import { HOST_RULES, urlVariant, type VariantRule } from './url-variants.js';

/** Default number of unrelated paths a host must answer with one body for it to be a soft-404. */
export const DEFAULT_SOFT_404_PATHS = 3;
/** A redirect chain longer than this is reported as too long. */
const MAX_HOPS = 20;

/** Options of {@link CrawlPhenomena}. */
export interface CrawlPhenomenaOptions {
  /** A host answering one body (its own path taken out) for at least this many unrelated paths is answering soft-404s. Default 3. */
  softPaths?: number;
}

/** A page fetched under another URL, joined to it. */
export interface VariantRecord {
  /** DocId of the variant. */
  id: number;
  url: string;
  /** The page it is a variant of: its URL and DocId. */
  page: string;
  pageId: number;
  /** The rules that join them (url-variants.ts); `recapture` when it is the same URL fetched again. */
  rules: Array<VariantRule | 'recapture'>;
}

/** A page answering a soft-404: HTTP 200 with a body its host answers for many unrelated paths. */
export interface Soft404Record {
  id: number;
  url: string;
  host: string;
  /** Distinct paths of the host answered with this body. */
  paths: number;
  /** Hosts answering this very body for some path (a hoster's stock page is answered on many). */
  hosts: number;
}

/** A host answering soft-404s. */
export interface Soft404Host {
  host: string;
  /** Its paths answered with a soft-404. */
  paths: number;
  /** Its distinct pages in all. */
  pages: number;
  /** True when every path of the host answers it: a parked domain or a catch-all. */
  every: boolean;
}

/** Two spellings of one host: `www.` or not, http or https. */
export interface HostAliasRecord {
  /** The host (origin: `http://name` or `https://name`) with more pages. */
  host: string;
  /** Its alias. */
  alias: string;
  rule: 'www' | 'https' | 'www+https';
  /** Pages fetched under both; of them, those with the same bytes. */
  pages: number;
  sameBytes: number;
  /** The address of both, when the crawl recorded one and it is the same. */
  ip?: string;
}

/** A redirect: an edge of the link graph. */
export interface RedirectRecord {
  from: string;
  to: string;
  status: number;
  /** Where the chain ends (the page reached), and after how many redirects. */
  final: string;
  hops: number;
  /** True when the chain ends at a page of the crawl. */
  page: boolean;
  /** True when the Location was relative (resolved against the URL redirected). */
  relative: boolean;
}

/** What `CrawlPhenomena.report` found. */
export interface PhenomenaReport {
  /** Pages fetched under another URL (and re-captures), each joined to its page. */
  variants: VariantRecord[];
  soft404: Soft404Record[];
  soft404Hosts: Soft404Host[];
  hostAliases: HostAliasRecord[];
  redirects: RedirectRecord[];
  /** Text records that are not pages, counted by content type. */
  notPages: Record<string, number>;
  /** Per DocId: 0 a page, 1 a variant (or re-capture) of another page, 2 a soft-404. */
  roles: Uint8Array;
  /** Per DocId: the DocId of the page it is (itself for a page or a soft-404). */
  pageOf: Uint32Array;
  /** Redirect loops and chains too long: reported and left out. */
  errors: ReadError[];
  /** Hosts answering every path with one body. */
  warnings: ReadError[];
}

/** Role of a document in `PhenomenaReport.roles`. */
export const ROLE_PAGE = 0, ROLE_VARIANT = 1, ROLE_SOFT_404 = 2;

const enc = new TextEncoder();

/** Rules whose join needs the same bytes under both URLs. */
const BYTES_RULES = new Set<string>([...HOST_RULES, 'index-html']);

/**
 * Takes a page's bytes and URL; returns a hash of the bytes with every occurrence of its path and
 * query (as written, and percent-decoded) taken out: a not-found page naming the path it answers
 * hashes the same for every path. The path alone is left in (a stock page's `action="/search"`
 * must not hash differently for `/search?q=x`).
 */
export function bodyKey(bytes: Uint8Array, url: string): string {
  return bodyHashes(bytes, url).key;
}

/**
 * The body's key (bodyKey) and, when its path was taken out of it, the hash of its bytes as they
 * are (`exact`; undefined when it is the key: nothing was taken out).
 */
function bodyHashes(bytes: Uint8Array, url: string): { key: string; exact?: string } {
  const h = createHash('sha1');
  const u = parseUrl(url);
  const needles: Uint8Array[] = [];
  if (u) {
    for (const s of new Set([u.pathname + u.search, safeDecode(u.pathname + u.search), safeDecode(u.pathname + u.search).replace(/\+/g, ' ')])) if (s.length > 1) needles.push(enc.encode(s));
    needles.sort((a, b) => b.length - a.length);
  }
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  let at = 0;
  for (;;) {
    let best = -1, len = 0;
    for (const n of needles) {
      const i = buf.indexOf(n, at);
      if (i >= 0 && (best < 0 || i < best)) { best = i; len = n.length; }
    }
    if (best < 0) break;
    h.update(bytes.subarray(at, best));
    h.update('\u0000path\u0000');
    at = best + len;
  }
  h.update(bytes.subarray(at));
  const key = h.digest('base64');
  return at === 0 ? { key } : { key, exact: createHash('sha1').update(bytes).digest('base64') };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Takes a URL; returns its origin host spelling (`scheme://host`) and host. */
function originOf(url: string): { origin: string; host: string } | undefined {
  const u = parseUrl(url);
  return u ? { origin: `${u.protocol}//${u.host}`, host: u.host } : undefined;
}

/** Collects a crawl's web phenomena as it is read; see the module comment. */
export class CrawlPhenomena {
  private readonly softPaths: number;
  private readonly urls: string[] = [];
  private readonly keys: string[] = [];
  private readonly rules: VariantRule[][] = [];
  private readonly bodies: (string | undefined)[] = [];
  /** The hash of a body as it is, where its path was taken out of its key (bodies). */
  private readonly exact: (string | undefined)[] = [];
  private readonly ips: (string | undefined)[] = [];
  private readonly edges: Array<{ from: string; to: string; status: number; relative: boolean }> = [];
  private readonly notPages: Record<string, number> = {};
  private observed = 0;

  constructor(options: CrawlPhenomenaOptions = {}) {
    rejectUnknown(options, ['softPaths'], 'CrawlPhenomena');
    this.softPaths = intOption('softPaths', options.softPaths, DEFAULT_SOFT_404_PATHS, 2, 2 ** 31);
  }

  /** Takes a document as read and its DocId (default: the next one); every DocId from 0 is to be observed once, in any order. */
  observe(doc: Pick<Document, 'url' | 'bytes' | 'ip'>, id: number = this.urls.length): void {
    if (!Number.isInteger(id) || id < 0 || this.urls[id] !== undefined) throw new RangeError(`CrawlPhenomena.observe: DocId ${id} observed twice or not a DocId`);
    const v = urlVariant(doc.url);
    this.urls[id] = v?.url ?? doc.url;
    this.keys[id] = v?.key ?? doc.url;
    this.rules[id] = v?.rules ?? [];
    const hashes = doc.bytes.length > 0 ? bodyHashes(doc.bytes, doc.url) : undefined;
    this.bodies[id] = hashes?.key;
    this.exact[id] = hashes?.exact;
    this.ips[id] = doc.ip;
    this.observed++;
  }

  /** Takes a skip event of the readers (pass it from `onSkip`): redirects and non-page records are counted. */
  skipped(s: SkipEvent): void {
    if (s.reason === 'redirect' && s.redirect) {
      this.edges.push({ ...s.redirect, relative: s.redirect.relative === true });
    } else if (s.reason === 'not-page') {
      const t = s.contentType ?? 'unknown';
      this.notPages[t] = (this.notPages[t] ?? 0) + 1;
    }
  }

  /** Takes reader options; returns them with `onSkip` also feeding this collector. */
  wrap<T extends {
    /** The readers' skip callback, called after this collector has counted the skip. */
    onSkip?: (s: SkipEvent) => void;
  }>(options: T): T {
    const inner = options.onSkip;
    return { ...options, onSkip: (s: SkipEvent) => { this.skipped(s); inner?.(s); } };
  }

  /**
   * Whether two documents answer the same bytes: the same body as it is, or the same body with each
   * one's own path taken out (a page naming its URL). The first is needed where the two paths
   * differ (a folder and its index file) and the page names the folder's path elsewhere (a link to
   * its source, `.../docs/extensions/index.md`), which only the folder's key takes out.
   */
  private sameBytes(a: number, b: number): boolean {
    const x = this.bodies[a], y = this.bodies[b];
    if (x === undefined || y === undefined) return false;
    return x === y || (this.exact[a] ?? x) === (this.exact[b] ?? y);
  }

  /** Number of documents observed. */
  get size(): number {
    return this.observed;
  }

  /** Returns what was found (see PhenomenaReport). */
  report(): PhenomenaReport {
    const n = this.urls.length;
    if (this.observed !== n) throw new RangeError(`CrawlPhenomena.report: ${n - this.observed} DocIds below ${n} not observed`);
    const roles = new Uint8Array(n);
    const pageOf = Uint32Array.from({ length: n }, (_, i) => i);
    // documents per origin (scheme and host): the main spelling of a host has the most
    const perOrigin = new Map<string, number>();
    const origins = this.urls.map((u) => originOf(u));
    for (const o of origins) if (o) perOrigin.set(o.origin, (perOrigin.get(o.origin) ?? 0) + 1);
    const groups = new Map<string, number[]>();
    for (let d = 0; d < n; d++) {
      const g = groups.get(this.keys[d]);
      if (g) g.push(d); else groups.set(this.keys[d], [d]);
    }
    const pageRules = (d: number) => this.rules[d].filter((r) => !HOST_RULES.includes(r)).length;
    const variants: VariantRecord[] = [];
    const pairs = new Map<string, { host: string; alias: string; rule: HostAliasRecord['rule']; pages: number; sameBytes: number; ips: Set<string | undefined> }>();
    for (const members of groups.values()) {
      if (members.length < 2) continue;
      // the page: the URL with fewest rules of its own, on its host's main spelling, first read
      let rep = members[0];
      for (const d of members) {
        const better = pageRules(d) - pageRules(rep) || (perOrigin.get(origins[rep]?.origin ?? '') ?? 0) - (perOrigin.get(origins[d]?.origin ?? '') ?? 0) || d - rep;
        if (better < 0) rep = d;
      }
      const repRules = new Set(this.rules[rep]);
      const seenOrigins = new Set<string>([origins[rep]?.origin ?? '']);
      for (const d of members) {
        if (d === rep) continue;
        const mine = new Set(this.rules[d]);
        const rules: VariantRecord['rules'] = this.rules[d].filter((r) => !repRules.has(r));
        for (const r of repRules) if (!mine.has(r)) rules.push(r);
        const ordered = rules.length === 0 ? (['recapture'] as VariantRecord['rules']) : rules;
        // another spelling of the host, and a folder's index file, name the same page only when
        // they answer the same bytes (a URL list, without bytes, proves nothing: www.x and x may
        // be two hosts); a session id, tracking and a print view are the same page by the URL
        if (rules.some((r) => BYTES_RULES.has(r)) && !this.sameBytes(d, rep)) continue;
        roles[d] = ROLE_VARIANT;
        pageOf[d] = rep;
        variants.push({ id: d, url: this.urls[d], page: this.urls[rep], pageId: rep, rules: ordered });
        // host aliases: the same page under another spelling of its host
        const a = origins[rep], b = origins[d];
        if (!a || !b || a.origin === b.origin || seenOrigins.has(b.origin)) continue;
        seenOrigins.add(b.origin);
        const rule = (ordered.includes('www') && ordered.includes('https') ? 'www+https' : ordered.includes('www') ? 'www' : ordered.includes('https') ? 'https' : undefined);
        if (rule === undefined) continue;
        const k = `${a.origin} ${b.origin}`;
        const p = pairs.get(k) ?? { host: a.origin, alias: b.origin, rule, pages: 0, sameBytes: 0, ips: new Set() };
        p.pages++;
        if (this.sameBytes(d, rep)) p.sameBytes++;
        p.ips.add(this.ips[d]);
        p.ips.add(this.ips[rep]);
        pairs.set(k, p);
      }
    }
    // soft-404s: per host, one body answered for many distinct pages
    const byHostBody = new Map<string, Map<string, Set<string>>>();
    const pagesOfHost = new Map<string, Set<string>>();
    for (let d = 0; d < n; d++) {
      const host = origins[d]?.host.replace(/^www\./, '');
      if (host === undefined) continue;
      const ph = pagesOfHost.get(host) ?? new Set();
      ph.add(this.keys[d]);
      pagesOfHost.set(host, ph);
      const body = this.bodies[d];
      if (body === undefined) continue;
      let m = byHostBody.get(host);
      if (!m) byHostBody.set(host, (m = new Map()));
      const s = m.get(body) ?? new Set();
      s.add(this.keys[d]);
      m.set(body, s);
    }
    const hostsOfBody = new Map<string, number>();
    for (const m of byHostBody.values()) for (const body of m.keys()) hostsOfBody.set(body, (hostsOfBody.get(body) ?? 0) + 1);
    const soft = new Map<string, Map<string, number>>(); // host → body → paths
    for (const [host, m] of byHostBody) {
      for (const [body, keys] of m) {
        if (independentPaths(keys) < this.softPaths || !unrelated(keys)) continue;
        let s = soft.get(host);
        if (!s) soft.set(host, (s = new Map()));
        s.set(body, keys.size);
      }
    }
    const soft404: Soft404Record[] = [];
    const softCount = new Map<string, number>();
    for (let d = 0; d < n; d++) {
      const host = origins[d]?.host.replace(/^www\./, '');
      const body = this.bodies[d];
      const paths = host === undefined || body === undefined ? undefined : soft.get(host)?.get(body);
      if (paths === undefined) continue;
      roles[d] = ROLE_SOFT_404;
      pageOf[d] = d;
      soft404.push({ id: d, url: this.urls[d], host: origins[d]!.host, paths, hosts: hostsOfBody.get(body!) ?? 1 });
      softCount.set(host!, (softCount.get(host!) ?? 0) + 1);
    }
    const warnings: ReadError[] = [];
    const soft404Hosts: Soft404Host[] = [...soft.keys()].sort().map((host) => {
      const paths = [...soft.get(host)!.values()].reduce((a, b) => a + b, 0);
      const pages = pagesOfHost.get(host)?.size ?? paths;
      const every = paths >= pages;
      if (every) warnings.push({ source: host, location: host, code: 'W_SOFT_404', message: `every one of the ${pages} paths of ${host} answers the same page (a parked domain or a catch-all): its pages are soft-404s, left out of the evidence` });
      return { host, paths, pages, every };
    });
    // redirects: chains followed to the page they reach; loops and overlong chains reported
    const errors: ReadError[] = [];
    const next = new Map<string, string>();
    for (const e of this.edges) if (!next.has(e.from)) next.set(e.from, e.to);
    const pageUrls = new Set(this.urls);
    const redirects: RedirectRecord[] = [];
    const looped = new Set<string>();
    for (const e of this.edges) {
      const chain = [e.from];
      let at = e.to;
      let loop = false;
      while (next.has(at) && chain.length <= MAX_HOPS) {
        if (chain.includes(at)) { loop = true; break; }
        chain.push(at);
        at = next.get(at)!;
      }
      if (loop || at === e.from) {
        const cycle = [...chain.slice(chain.indexOf(at)), at];
        const k = [...new Set(cycle)].sort().join(' ');
        if (!looped.has(k)) {
          looped.add(k);
          errors.push({ source: e.from, location: e.from, code: 'E_INPUT', message: `redirect loop: ${cycle.map((u) => JSON.stringify(u.slice(0, 120))).join(' → ')}; its redirects are left out of the link graph` });
        }
        continue;
      }
      if (chain.length > MAX_HOPS) {
        errors.push({ source: e.from, location: e.from, code: 'E_INPUT', message: `redirect chain from ${JSON.stringify(e.from.slice(0, 120))} longer than ${MAX_HOPS}; left out of the link graph` });
        continue;
      }
      redirects.push({ from: e.from, to: e.to, status: e.status, final: at, hops: chain.length, page: pageUrls.has(at), relative: e.relative });
    }
    const hostAliases: HostAliasRecord[] = [...pairs.values()]
      .filter((p) => p.sameBytes * 2 >= p.pages && p.ips.size <= (p.ips.has(undefined) ? 2 : 1))
      .map((p) => {
        const ips = [...p.ips].filter((x): x is string => x !== undefined);
        return { host: p.host, alias: p.alias, rule: p.rule, pages: p.pages, sameBytes: p.sameBytes, ...(ips.length === 1 ? { ip: ips[0] } : {}) };
      })
      .sort((x, y) => (x.host < y.host ? -1 : x.host > y.host ? 1 : x.alias < y.alias ? -1 : 1));
    return { variants, soft404, soft404Hosts, hostAliases, redirects, notPages: { ...this.notPages }, roles, pageOf, errors, warnings };
  }
}

/** True when page keys are unrelated paths: not all one page's spellings (two or more distinct paths without their queries, or queries on one path). */
function unrelated(keys: Set<string>): boolean {
  const paths = new Set<string>();
  for (const k of keys) paths.add(k.replace(/[?#].*$/, ''));
  return paths.size >= 2;
}

/**
 * Takes the page keys answering one body on a host; returns how many paths they are, a folder's
 * URL not counted when a page of that very folder answers the same body: a generator writes a
 * folder's index page under a name of its own too (DocBook's `book1.html` beside `index.html`),
 * so the two are one page seen twice, not two paths answered alike.
 */
function independentPaths(keys: Set<string>): number {
  const folders = new Set<string>(), bare: string[] = [];
  for (const k of keys) {
    const p = k.replace(/[?#].*$/, '');
    if (p !== k) continue;
    if (p.endsWith('/')) bare.push(p);
    else folders.add(p.slice(0, p.lastIndexOf('/') + 1));
  }
  return keys.size - bare.filter((f) => folders.has(f)).length;
}

/** Takes the redirects of a report; returns, per URL redirected, where a link to it leads (the chain's final URL). */
export function redirectMap(redirects: readonly RedirectRecord[]): Map<string, string> {
  return new Map(redirects.map((r) => [r.from, r.final]));
}

/** Takes a report; returns its one-line summary for stderr (empty when the crawl held none of the phenomena). */
export function phenomenaSummary(r: PhenomenaReport): string {
  const parts: string[] = [];
  const of = (n: number, one: string, more: string) => `${n} ${n === 1 ? one : more}`;
  if (r.variants.length) {
    const byRule = new Map<string, number>();
    for (const v of r.variants) for (const rule of v.rules) byRule.set(rule, (byRule.get(rule) ?? 0) + 1);
    parts.push(`${of(r.variants.length, 'URL was another spelling', 'URLs were other spellings')} of a crawled page, read as that page (${[...byRule].map(([k, n]) => `${k} ${n}`).join(', ')})`);
  }
  if (r.soft404.length) parts.push(`${of(r.soft404.length, 'error page served as an ordinary page', 'error pages served as ordinary pages')} (soft 404s) on ${of(r.soft404Hosts.length, 'host', 'hosts')} left out (${r.soft404Hosts.filter((h) => h.every).length} answering every path so)`);
  if (r.hostAliases.length) parts.push(`${of(r.hostAliases.length, 'host answers', 'hosts answer')} under a second name (www.), read as one`);
  if (r.redirects.length) parts.push(of(r.redirects.length, 'redirect read as a link', 'redirects read as links'));
  const types = Object.entries(r.notPages);
  if (types.length) parts.push(`${types.reduce((n, [, k]) => n + k, 0)} records that are not pages skipped (${types.map(([t, n]) => `${t} ${n}`).join(', ')})`);
  return parts.length ? `web crawl: ${parts.join('; ')}` : '';
}

/** Takes a report; returns it as JSON lines, one per finding: `{kind: variant | soft-404 | soft-404-host | alias | redirect | not-page, …}`. */
export function phenomenaRecords(r: PhenomenaReport): string[] {
  return [
    ...r.variants.map((v) => ({ kind: 'variant', url: v.url, page: v.page, rules: v.rules })),
    ...r.soft404.map((s) => ({ kind: 'soft-404', url: s.url, host: s.host, paths: s.paths, hosts: s.hosts })),
    ...r.soft404Hosts.map((h) => ({ kind: 'soft-404-host', ...h })),
    ...r.hostAliases.map((a) => ({ kind: 'alias', ...a })),
    ...r.redirects.map((x) => ({ kind: 'redirect', ...x })),
    ...Object.entries(r.notPages).map(([contentType, records]) => ({ kind: 'not-page', contentType, records })),
  ].map((x) => JSON.stringify(x));
}
