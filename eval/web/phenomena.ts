/**
 * A WARC crawl of real documentation with what real crawls hold (issue 41, item 3), and its truth:
 * the pages are laid out from a plan of copies as the manuals crawls are (../manuals/plan.ts,
 * layout.ts), then fetched by a simulated crawler in two sweeps over hosts with addresses:
 *
 * - the same page under other URLs: session ids (`?sid=`, `;jsessionid=` with the page's own links
 *   carrying it, `?PHPSESSID=`), tracking parameters (`utm_*`, `fbclid`, `gclid`, `ref`),
 *   `/dir/index.html` for `/dir/`, `https:` for `http:`, a `www.` alias host (or the name without
 *   it), and a printer-friendly view (`?print=1`, the page's body in a minimal template);
 * - redirects: `/dir` → `/dir/` (301), `.htm` → `.html` (301), a `latest/` folder → the release (302),
 *   and chains of two;
 * - soft-404s: hosts answering 200 for any path, with the hoster's stock body (the same on
 *   unrelated hosts) or a page of their own naming the path; real 404s with a stock body;
 * - `robots.txt` (text/plain), and the stylesheets and scripts of the manuals that ship them;
 * - a second sweep: a share of the pages fetched again, unchanged ones written as `revisit`
 *   records (identical-payload-digest, or server-not-modified: 304), changed ones as new responses;
 * - `WARC-IP-Address` on every record, from the plan's hosts: shared hosting (many unrelated hosts
 *   on one address), mirrors on neighbouring addresses, aliases on their host's address;
 * - a few broken records: a redirect loop, a relative and a broken Location, an address that is
 *   not an IP, a revisit naming a record that is in no file.
 *
 * Everything is chosen by hashes of the seed and the URL (no random state): the same spec gives
 * the same files byte for byte. `buildWebCrawl(spec)` writes `sweep-1.warc.gz`, `sweep-2.warc.gz`
 * and `crawl.warc.gz` (both sweeps, one file) and, in `truth/`, the manuals crawls' truth files for
 * the canonical pages (pages.json, copies.json, pairs.jsonl, clusters.json, summary.json) and:
 * - `records.jsonl`: one line per response or revisit record: file, number, uri, ip, status, `kind`
 *   (page, variant, redirect, soft-404, not-found, robots, asset, recapture, revisit, broken),
 *   `canonical` (the page's URL) and `rule` (which variant or redirect), `location`, `final`;
 * - `hosts.json`: every host with its address, role and aliases; the alias pairs; the addresses
 *   shared by several unrelated hosts; the mirrored host pairs;
 * - `hosts.txt` (`host ip` lines, for `--ips`), `mirrors.txt` (`hostA hostB` lines, for `--truth`).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crawlDigest } from '../manuals/build.js';
import { chosen, hostPairs, copyPairs, layOut, listHtml, type Page } from '../manuals/layout.js';
import type { CopySpec, Work } from '../manuals/plan.js';
import { fetchSources, packageKey, writeSourcesJson, type Source } from '../manuals/sources.js';
import { writeTruth } from '../manuals/truth.js';
import { WarcWriter, sha1Base32, type Written } from './warc-writer.js';

/** How often each phenomenon occurs: shares of the canonical pages, unless said otherwise. */
export interface PhenomenaRates {
  /** Pages also fetched with a session id (each host has one style: sid, jsessionid, PHPSESSID). */
  sessionId: number;
  /** Pages also fetched with tracking parameters. */
  tracking: number;
  /** Folder pages (`/dir/`) also fetched as `/dir/index.html`. */
  indexHtml: number;
  /** Pages of hosts that answer https also fetched over https. */
  https: number;
  /** Pages of hosts with a `www.` alias also fetched under the alias. */
  www: number;
  /** UTF-8 pages with a printer-friendly view (`?print=1`). */
  print: number;
  /** Pages reached through a redirect from an old URL (each redirect is one record, chains two). */
  redirects: number;
  /** Share of redirects that are chains of two. */
  chains: number;
  /** Paths answered per soft-404 host (200 with a not-found body). */
  softNotFound: number;
  /** Real 404 responses per host. */
  notFound: number;
  /** Pages (and assets) fetched again in the second sweep. */
  revisits: number;
  /** Of those, the share changed since the first sweep (a new response, not a revisit). */
  changed: number;
  /** Of the unchanged ones, the share answered 304 (a server-not-modified revisit). */
  notModified: number;
  /** Write request records before responses. */
  requests: boolean;
  /** Write the broken records (one of each kind). */
  broken: boolean;
}

/** The rates of the reporting crawl, about what a documentation crawl of a few thousand pages meets. */
export const DEFAULT_RATES: PhenomenaRates = {
  sessionId: 0.03, tracking: 0.03, indexHtml: 0.6, https: 0.05, www: 0.05, print: 0.02, redirects: 0.03, chains: 0.2,
  softNotFound: 12, notFound: 2, revisits: 0.35, changed: 0.06, notModified: 0.3, requests: true, broken: true,
};

/** A host of the crawl, as the crawler met it. */
export interface WebHost {
  host: string;
  /** Its address (IPv4 or IPv6). */
  ip: string;
  /** What it is, in words (origin server, mirror beside its origin, shared hosting...). */
  role: string;
  /** Also answers as `www.HOST` (or HOST without `www.`): an alias on the same address. */
  www?: boolean;
  /** Also answers over https. */
  https?: boolean;
  /** Answers 200 for any path: with its hoster's stock page (`stock`) or a page of its own naming the path (`own`). */
  softNotFound?: 'stock' | 'own';
  /** Server header. */
  server?: string;
  /** Session id style of its dynamic pages (default chosen by the host's name). */
  session?: 'sid' | 'jsessionid' | 'PHPSESSID';
}

/** A crawl to build. */
export interface WebCrawlSpec {
  /** Name: the default output folder under $RESEMBLE_DATA, and the WARC's `isPartOf`. */
  name: string;
  seed: number;
  sources: Source[];
  works: Work[];
  copies: CopySpec[];
  /** Every host holding a copy (and any other), with its address. */
  hosts: WebHost[];
  /** Copies whose stylesheets and scripts are fetched too (by copy id). */
  assets: string[];
  rates: PhenomenaRates;
  /** Dates the two sweeps start (ISO, to the second). */
  sweeps?: [string, string];
  /** Takes the laid-out pages; returns them with some changed (planted near copies of a copy's pages); the truth is of the pages returned. */
  plant?: (pages: Page[]) => Page[];
}

/** One line of records.jsonl. */
export interface RecordTruth {
  file: string;
  n: number;
  type: 'response' | 'revisit';
  uri: string;
  ip: string;
  status: number;
  kind: 'page' | 'variant' | 'redirect' | 'soft-404' | 'not-found' | 'robots' | 'asset' | 'recapture' | 'revisit' | 'broken';
  /** The canonical page this record is (or leads to). */
  canonical?: string;
  /** Variant rule (session-id, tracking, index-html, https, www, print), redirect rule (folder-slash, renamed, latest, chain) or what is broken. */
  rule?: string;
  location?: string;
  contentType?: string;
}

/** A value in [0, 1) from the seed, a salt and a key: the crawl's only source of chance. */
export function draw(seed: number, salt: string, key: string): number {
  return parseInt(createHash('sha256').update(`${seed}\n${salt}\n${key}`).digest('hex').slice(0, 12), 16) / 2 ** 48;
}

const hex = (seed: number, key: string, n: number) => createHash('sha256').update(`${seed} ${key}`).digest('hex').slice(0, n).toUpperCase();
const latin1 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.length).toString('latin1');
const bytesOf = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));
const utf8 = (s: string) => new TextEncoder().encode(s);

/** The www alias of a host name: without `www.` when it has it, else with it. */
export const wwwAlias = (host: string) => (host.startsWith('www.') ? host.slice(4) : `www.${host}`);

/** Takes a URL and parameters; returns it with them appended to its query. */
const withQuery = (url: string, q: string) => url + (url.includes('?') ? '&' : '?') + q;

/** A page's bytes with its relative links carrying a session id (`;jsessionid=`), as a servlet container rewrites them. */
function sessionLinks(bytes: Uint8Array, id: string): Uint8Array {
  return bytesOf(latin1(bytes).replace(/(\shref\s*=\s*")([^"#?:]+\.html?)(?=[#"])/gi, `$1$2;jsessionid=${id}`));
}

/** The printer-friendly view of a UTF-8 page: its title and body (scripts, navigation and forms left out) in a minimal template. */
function printView(html: string, url: string): Uint8Array {
  const title = /<title[^>]*>([^]*?)<\/title>/i.exec(html)?.[1] ?? '';
  let body = /<body[^>]*>([^]*)<\/body>/i.exec(html)?.[1] ?? html;
  body = body.replace(/<(script|nav|form|style)\b[^]*?<\/\1>/gi, '');
  return utf8(`<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${title}</title><meta name="robots" content="noindex"></head>\n<body class="print">\n${body}\n<p class="printed">Printed from ${url}</p>\n</body></html>\n`);
}

/** The page a hoster answers for any path it does not hold: the same on every host it serves. */
const STOCK_NOT_FOUND = utf8(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Page not found</title>
<style>body{font-family:sans-serif;max-width:40em;margin:4em auto;color:#333}</style></head>
<body><h1>Oops! That page can&rsquo;t be found.</h1>
<p>It looks like nothing was found at this location. The page may have been moved or deleted, or the address may be mistyped.</p>
<p>Try going back to the <a href="/">home page</a>, or use the search box below.</p>
<form action="/search" method="get"><input name="q" placeholder="Search this site"><button>Search</button></form>
<p class="host-notice">This site is hosted by Example Web Hosting. Build your own website in minutes with our site builder.</p>
</body></html>
`);

/** A host's own not-found page, naming the path (a near-duplicate of itself across paths). */
const ownNotFound = (host: string, path: string) => utf8(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>${host}: not found</title></head>
<body><h1>Not Found</h1><p>The requested document ${path.replace(/[<&]/g, '')} was not found on ${host}. It may have moved when the documentation was reorganised; please start again from the documentation index.</p>
<hr><address>${host}</address></body></html>
`);

/** The body of a real 404 and of a redirect, as a common server writes them (the same on every host of that server). */
const notFoundBody = (path: string) => utf8(`<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>404 Not Found</title>\n</head><body>\n<h1>Not Found</h1>\n<p>The requested URL ${path.replace(/[<&]/g, '')} was not found on this server.</p>\n</body></html>\n`);
const redirectBody = (status: number, location: string) => utf8(`<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>${status} ${status === 301 ? 'Moved Permanently' : 'Found'}</title>\n</head><body>\n<h1>${status === 301 ? 'Moved Permanently' : 'Found'}</h1>\n<p>The document has moved <a href="${location}">here</a>.</p>\n</body></html>\n`);

/** A fetch the simulated crawler makes in the first sweep, before it is written. */
interface Fetch {
  uri: string;
  host: string;
  status: number;
  contentType: string;
  body: Uint8Array;
  location?: string;
  kind: RecordTruth['kind'];
  canonical?: string;
  rule?: string;
  /** Where in its host's fetch order it comes. */
  at: number;
  /** The record's address, when not its host's (a broken one). */
  ip?: string;
}

const REASONS: Record<number, string> = { 200: 'OK', 301: 'Moved Permanently', 302: 'Found', 404: 'Not Found' };

/** Takes a page's bytes and charset; returns the Content-Type a server sends for it. */
const htmlType = (charset: string) => `text/html; charset=${charset === 'utf-8' ? 'UTF-8' : charset}`;

/** Takes the spec and the laid-out pages; returns the first sweep's fetches, in crawl order. */
export function firstSweep(spec: WebCrawlSpec, pages: Page[], sourceDir: (s: Source) => string): Fetch[] {
  const { seed, rates } = spec;
  const hostOf = new Map(spec.hosts.map((h) => [h.host, h]));
  const byHost = new Map<string, Fetch[]>();
  // A URI is fetched once in a sweep: the canonical pages first, then the first fetch to want it.
  const taken = new Set(pages.map((p) => p.url));
  const add = (f: Fetch) => {
    if (f.kind !== 'page') {
      if (taken.has(f.uri)) return;
      taken.add(f.uri);
    }
    const l = byHost.get(f.host);
    if (l) l.push(f); else byHost.set(f.host, [f]);
  };
  const perHost = new Map<string, Page[]>();
  for (const p of pages) {
    const h = new URL(p.url).host;
    if (!hostOf.has(h)) throw new Error(`page ${p.url}: host ${h} is not among the spec's hosts`);
    const l = perHost.get(h);
    if (l) l.push(p); else perHost.set(h, [p]);
  }
  const sessionStyles = ['sid', 'jsessionid', 'PHPSESSID'] as const;
  const tracking = ['utm_source=newsletter&utm_medium=email&utm_campaign=spring-release', 'utm_source=twitter&utm_medium=social', 'ref=news.example.com', 'fbclid=IwAR', 'gclid=Cj0KCQ'];
  for (const h of spec.hosts) {
    const list = perHost.get(h.host) ?? [];
    const n = Math.max(list.length, 1);
    const style = h.session ?? sessionStyles[Math.floor(draw(seed, 'session-style', h.host) * 3)];
    add({ uri: `http://${h.host}/robots.txt`, host: h.host, status: 200, contentType: 'text/plain', body: utf8('User-agent: *\nDisallow: /search\nDisallow: /cgi-bin/\n'), kind: 'robots', at: -1 });
    list.forEach((p, i) => {
      const type = htmlType(p.charset);
      add({ uri: p.url, host: h.host, status: 200, contentType: type, body: p.bytes, kind: 'page', canonical: p.url, at: i });
      const variant = (uri: string, rule: string, body: Uint8Array = p.bytes) => {
        add({ uri, host: h.host, status: 200, contentType: type, body, kind: 'variant', canonical: p.url, rule, at: draw(seed, `at ${rule}`, p.url) * n });
      };
      if (draw(seed, 'session-id', p.url) < rates.sessionId) {
        const id = hex(seed, `session ${p.url}`, 32);
        if (style === 'jsessionid') variant(`${p.url.replace(/\/$/, '/index.html')};jsessionid=${id}`, 'session-id', sessionLinks(p.bytes, id));
        else variant(withQuery(p.url, `${style}=${style === 'sid' ? id.toLowerCase() : id.slice(0, 26).toLowerCase()}`), 'session-id');
      }
      if (draw(seed, 'tracking', p.url) < rates.tracking) {
        const t = tracking[Math.floor(draw(seed, 'tracking-kind', p.url) * tracking.length)];
        variant(withQuery(p.url, /=$|IwAR$|Cj0KCQ$/.test(t) ? t + hex(seed, `click ${p.url}`, 16) : t), 'tracking');
      }
      if (p.url.endsWith('/') && draw(seed, 'index-html', p.url) < rates.indexHtml) variant(`${p.url}index.html`, 'index-html');
      if (h.https && draw(seed, 'https', p.url) < rates.https) variant(p.url.replace(/^http:/, 'https:'), 'https');
      if (h.www && draw(seed, 'www', p.url) < rates.www) variant(p.url.replace(`//${h.host}/`, `//${wwwAlias(h.host)}/`), 'www');
      if (p.charset === 'utf-8' && draw(seed, 'print', p.url) < rates.print) variant(withQuery(p.url, 'print=1'), 'print', printView(new TextDecoder().decode(p.bytes), p.url));
      if (draw(seed, 'redirect', p.url) < rates.redirects) {
        const u = new URL(p.url);
        const parts = u.pathname.split('/');
        const kinds: string[] = [];
        if (u.pathname.endsWith('/')) kinds.push('folder-slash');
        if (/\.html$/.test(u.pathname)) kinds.push('renamed');
        if (parts.length > 3) kinds.push('latest');
        if (kinds.length === 0) return;
        const rule = kinds[Math.floor(draw(seed, 'redirect-kind', p.url) * kinds.length)];
        const from = rule === 'folder-slash' ? p.url.slice(0, -1) : rule === 'renamed' ? p.url.replace(/\.html$/, '.htm')
          : `${u.origin}${[...parts.slice(0, 2), 'latest', ...parts.slice(3)].join('/')}`;
        const status = rule === 'latest' ? 302 : 301;
        const before = draw(seed, 'redirect-at', p.url) * n;
        add({ uri: from, host: h.host, status, contentType: 'text/html; charset=iso-8859-1', body: redirectBody(status, p.url), location: p.url, kind: 'redirect', canonical: p.url, rule, at: before });
        if (rule === 'latest' && u.pathname.endsWith('/') && draw(seed, 'chain', p.url) < rates.chains) {
          // a chain: latest/dir → latest/dir/ → the release's dir/
          add({ uri: from.slice(0, -1), host: h.host, status: 301, contentType: 'text/html; charset=iso-8859-1', body: redirectBody(301, from), location: from, kind: 'redirect', canonical: p.url, rule: 'chain', at: before - 0.5 });
        }
      }
    });
    // Paths the host does not hold: links to pages of other releases and manuals, and probes.
    const queries = ['install', 'configuration', 'release+notes', 'faq'];
    const missing = (k: number) => {
      const p = list.length ? list[Math.floor(draw(seed, `missing ${k}`, h.host) * list.length)] : undefined;
      const base = p ? new URL(p.url).pathname.replace(/[^/]*$/, '') : '/';
      return k % 4 === 3 ? `/search?q=${queries[Math.floor(k / 4) % 4]}` : `${base}${['changes', 'old-index', 'download', 'license'][k % 4]}-${k}.html`;
    };
    if (h.softNotFound) {
      for (let k = 0; k < rates.softNotFound; k++) {
        const path = missing(k);
        add({ uri: `http://${h.host}${path}`, host: h.host, status: 200, contentType: 'text/html; charset=UTF-8', body: h.softNotFound === 'stock' ? STOCK_NOT_FOUND : ownNotFound(h.host, path), kind: 'soft-404', rule: h.softNotFound, at: draw(seed, 'soft-at', `${h.host}${path}`) * n });
      }
    } else {
      for (let k = 0; k < rates.notFound; k++) {
        const path = missing(k + 100);
        add({ uri: `http://${h.host}${path}`, host: h.host, status: 404, contentType: 'text/html; charset=iso-8859-1', body: notFoundBody(path), kind: 'not-found', at: draw(seed, 'hard-at', `${h.host}${path}`) * n });
      }
    }
  }
  // Stylesheets and scripts of the copies that ship them, fetched as the crawler meets them.
  const sourceById = new Map(spec.sources.map((s) => [s.id, s]));
  for (const c of spec.copies.filter((x) => spec.assets.includes(x.id))) {
    const src = sourceById.get(c.source)!;
    const files = listHtml(join(sourceDir(src), src.html), src.exclude, true).filter((f) => /\.(css|js)$/.test(f));
    for (const f of files) {
      if ('fraction' in c.select && !chosen(c.select.salt, f, c.select.fraction)) continue;
      const uri = `http://${c.host}${c.prefix}${encodeURI(f)}`;
      const n = (perHost.get(c.host) ?? []).length || 1;
      add({ uri, host: c.host, status: 200, contentType: f.endsWith('.css') ? 'text/css' : 'application/javascript', body: new Uint8Array(readFileSync(join(sourceDir(src), src.html, f))), kind: 'asset', at: draw(seed, 'asset-at', uri) * n });
    }
  }
  if (spec.rates.broken) {
    // One of each broken record, on the first host with pages.
    const h = spec.hosts.find((x) => (perHost.get(x.host) ?? []).length > 0)!;
    const first = perHost.get(h.host)![0];
    const o = `http://${h.host}`;
    add({ uri: `${o}/loop-a/`, host: h.host, status: 302, contentType: 'text/html', body: redirectBody(302, `${o}/loop-b/`), location: `${o}/loop-b/`, kind: 'broken', rule: 'redirect loop', at: 0.5 });
    add({ uri: `${o}/loop-b/`, host: h.host, status: 302, contentType: 'text/html', body: redirectBody(302, `${o}/loop-a/`), location: `${o}/loop-a/`, kind: 'broken', rule: 'redirect loop', at: 0.6 });
    const rel = new URL(first.url).pathname.split('/').pop() || './';
    add({ uri: first.url.replace(/[^/]*$/, 'moved-here.html'), host: h.host, status: 301, contentType: 'text/html', body: redirectBody(301, rel), location: rel, kind: 'redirect', canonical: first.url, rule: 'relative location', at: 1.5 });
    add({ uri: `${o}/broken-location/`, host: h.host, status: 301, contentType: 'text/html', body: redirectBody(301, 'http://[broken'), location: 'http://[broken', kind: 'broken', rule: 'broken location', at: 2.5 });
    add({ uri: `${o}/bad-address.html`, host: h.host, status: 200, contentType: 'text/html; charset=UTF-8', body: utf8('<!DOCTYPE html><html><head><title>Address</title></head><body><p>A record whose server address is not an IP address.</p></body></html>\n'), kind: 'broken', rule: 'address not an IP', ip: 'unknown-host', at: 3.5 });
  }
  // Each host's fetches in order; hosts taken in turn, a fetch of each at a time, as a polite crawler does.
  const lists = spec.hosts.map((h) => (byHost.get(h.host) ?? []).sort((a, b) => a.at - b.at || (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0)));
  const out: Fetch[] = [];
  const total = lists.reduce((s, l) => s + l.length, 0);
  for (let round = 0; out.length < total; round++) for (const l of lists) if (round < l.length) out.push(l[round]);
  return out;
}

/** Takes a page's bytes; returns them changed as a regenerated page is: a line of text added after <body>. */
function changedPage(bytes: Uint8Array, date: string): Uint8Array {
  const s = latin1(bytes);
  const line = `<p class="updated">This page was regenerated on ${date.slice(0, 10)}.</p>`;
  const m = /<body[^>]*>/i.exec(s);
  return bytesOf(m ? s.slice(0, m.index + m[0].length) + line + s.slice(m.index + m[0].length) : line + s);
}

const iso = (start: string, seconds: number) => new Date(Date.parse(start) + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Takes the spec, its pages and the output folder; writes both sweeps and the records' truth; returns the records. */
export function writeSweeps(spec: WebCrawlSpec, pages: Page[], out: string, sourceDir: (s: Source) => string): RecordTruth[] {
  const [start1, start2] = spec.sweeps ?? ['2024-03-04T09:00:00Z', '2024-04-08T09:00:00Z'];
  const ipOf = new Map<string, string>();
  for (const h of spec.hosts) {
    ipOf.set(h.host, h.ip);
    if (h.www) ipOf.set(wwwAlias(h.host), h.ip);
  }
  const serverOf = new Map(spec.hosts.map((h) => [h.host, h.server ?? 'Apache/2.4.57 (Debian)']));
  const baseHost = (host: string) => (ipOf.has(host) && serverOf.has(host) ? host : wwwAlias(host));
  const records: RecordTruth[] = [];
  const fetches = firstSweep(spec, pages, sourceDir);
  const info = (sweep: number) => ({ software: 'archive-crawler/3.4', format: 'WARC File Format 1.1', isPartOf: spec.name, description: `sweep ${sweep} of 2` });
  const written = new Map<string, { w: Written; date: string; fetch: Fetch }>();
  const headersFor = (f: Fetch, date: string): Array<[string, string]> => {
    const host = new URL(f.uri).host;
    const h: Array<[string, string]> = [['Date', new Date(date).toUTCString()], ['Server', serverOf.get(baseHost(host)) ?? 'Apache'], ['Content-Type', f.contentType]];
    if (f.location !== undefined) h.push(['Location', f.location]);
    if (f.status === 200) h.push(['Last-Modified', 'Mon, 12 Feb 2024 10:00:00 GMT'], ['ETag', `"${sha1Base32(f.body).slice(5, 21)}"`]);
    return h;
  };
  const one = new WarcWriter(join(out, 'sweep-1.warc.gz'), 'sweep-1.warc.gz', info(1), start1);
  fetches.forEach((f, k) => {
    const date = iso(start1, k);
    const ip = f.ip ?? ipOf.get(new URL(f.uri).host) ?? ipOf.get(f.host)!;
    const w = one.write({ uri: f.uri, ip, date, status: f.status, reason: REASONS[f.status] ?? 'OK', headers: headersFor(f, date), body: f.body, request: spec.rates.requests });
    if (!written.has(f.uri)) written.set(f.uri, { w, date, fetch: f });
    records.push({ file: 'sweep-1.warc.gz', n: k, type: 'response', uri: f.uri, ip, status: f.status, kind: f.kind, canonical: f.canonical, rule: f.rule, location: f.location, contentType: f.contentType });
  });
  one.close();
  // The second sweep: a share of the pages and assets again, in the same order.
  const two = new WarcWriter(join(out, 'sweep-2.warc.gz'), 'sweep-2.warc.gz', info(2), start2);
  let k = 0;
  for (const f of fetches) {
    if ((f.kind !== 'page' && f.kind !== 'asset') || draw(spec.seed, 'revisit', f.uri) >= spec.rates.revisits) continue;
    const date = iso(start2, k);
    const ip = ipOf.get(new URL(f.uri).host)!;
    const earlier = written.get(f.uri)!;
    if (f.kind === 'page' && draw(spec.seed, 'changed', f.uri) < spec.rates.changed) {
      const body = changedPage(f.body, start2);
      two.write({ uri: f.uri, ip, date, status: 200, reason: 'OK', headers: headersFor({ ...f, body }, date), body, request: spec.rates.requests });
      records.push({ file: 'sweep-2.warc.gz', n: k++, type: 'response', uri: f.uri, ip, status: 200, kind: 'recapture', canonical: f.canonical, rule: 'changed', contentType: f.contentType });
      continue;
    }
    const profile = draw(spec.seed, 'not-modified', f.uri) < spec.rates.notModified ? 'server-not-modified' as const : 'identical-payload-digest' as const;
    two.write({ uri: f.uri, ip, date, status: 200, reason: 'OK', headers: headersFor(f, date), body: new Uint8Array(0), request: spec.rates.requests,
      revisit: { profile, uri: f.uri, date: earlier.date, id: earlier.w.id, digest: earlier.w.digest } });
    records.push({ file: 'sweep-2.warc.gz', n: k++, type: 'revisit', uri: f.uri, ip, status: profile === 'server-not-modified' ? 304 : 200, kind: 'revisit', canonical: f.canonical, rule: profile, contentType: f.contentType });
  }
  if (spec.rates.broken) {
    // A revisit naming a record that is in neither file.
    const f = fetches.find((x) => x.kind === 'page')!;
    const uri = f.uri.replace(/[^/]*$/, 'never-fetched.html');
    const date = iso(start2, k);
    const ip = ipOf.get(new URL(uri).host)!;
    two.write({ uri, ip, date, status: 200, reason: 'OK', headers: [['Content-Type', 'text/html']], body: new Uint8Array(0), request: false,
      revisit: { profile: 'identical-payload-digest', uri, date: start1, id: '<urn:uuid:00000000-0000-4000-a000-000000000000>', digest: 'sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' } });
    records.push({ file: 'sweep-2.warc.gz', n: k++, type: 'revisit', uri, ip, status: 200, kind: 'broken', rule: 'revisit of a missing record' });
  }
  two.close();
  // Both sweeps in one file: gzip members concatenate.
  writeFileSync(join(out, 'crawl.warc.gz'), Buffer.concat([readFileSync(join(out, 'sweep-1.warc.gz')), readFileSync(join(out, 'sweep-2.warc.gz'))]));
  return records;
}

/** Takes the spec and the truth folder; writes hosts.json, hosts.txt and mirrors.txt. */
export function writeHostTruth(spec: WebCrawlSpec, pages: Page[], dir: string): void {
  const pairs = hostPairs(spec.copies, copyPairs(spec.works, spec.copies, pages));
  const byIp = new Map<string, string[]>();
  for (const h of spec.hosts) byIp.set(h.ip, [...(byIp.get(h.ip) ?? []), h.host]);
  const aliases = spec.hosts.flatMap((h) => [
    ...(h.www ? [{ a: h.host, b: wwwAlias(h.host), rule: 'www' }] : []),
    ...(h.https ? [{ a: `http://${h.host}`, b: `https://${h.host}`, rule: 'https' }] : []),
  ]);
  writeFileSync(join(dir, 'hosts.json'), JSON.stringify({
    hosts: spec.hosts.map((h) => ({ host: h.host, ip: h.ip, role: h.role, aliases: h.www ? [wwwAlias(h.host)] : [], https: h.https === true, softNotFound: h.softNotFound ?? null })),
    aliases,
    sharedAddresses: [...byIp].filter(([, hs]) => hs.length > 1).map(([ip, hosts]) => ({ ip, hosts })),
    mirrorPairs: pairs.filter((p) => p.mirror).map((p) => ({ a: p.a, b: p.b, relations: p.relations })),
  }, null, 1) + '\n');
  const lines = spec.hosts.flatMap((h) => [`${h.host} ${h.ip}`, ...(h.www ? [`${wwwAlias(h.host)} ${h.ip}`] : [])]);
  writeFileSync(join(dir, 'hosts.txt'), lines.join('\n') + '\n');
  writeFileSync(join(dir, 'mirrors.txt'), pairs.filter((p) => p.mirror).map((p) => `${p.a} ${p.b}`).join('\n') + '\n');
}

/** Builds the crawl into `out` from packages cached in `sources`; returns the truth's summary. */
export async function buildWebCrawl(spec: WebCrawlSpec, dirs: { sources: string; out: string }, log: (s: string) => void = (s) => console.error(s)) {
  const fetched = fetchSources(dirs.sources, log, spec.sources);
  const sourceDir = (s: Source) => fetched.get(packageKey(s))!.dir;
  const laid = layOut(spec.works, spec.copies, spec.sources, sourceDir);
  const pages = spec.plant ? spec.plant(laid) : laid;
  const hosts = new Set(pages.map((p) => new URL(p.url).host));
  log(`laid out ${pages.length} pages of ${spec.copies.length} copies on ${hosts.size} hosts`);
  mkdirSync(dirs.out, { recursive: true });
  const records = writeSweeps(spec, pages, dirs.out, sourceDir);
  const truthDir = join(dirs.out, 'truth');
  mkdirSync(truthDir, { recursive: true });
  writeFileSync(join(truthDir, 'records.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  writeHostTruth(spec, pages, truthDir);
  writeSourcesJson(truthDir, spec.copies.map((c) => c.source), fetched, spec.sources);
  const kinds: Record<string, number> = {};
  for (const r of records) kinds[r.kind] = (kinds[r.kind] ?? 0) + 1;
  log(`wrote ${records.length} records: ${Object.entries(kinds).map(([k, n]) => `${k} ${n}`).join(', ')}`);
  return writeTruth(truthDir, spec.works, spec.copies, pages, { digest: crawlDigest(pages), seed: spec.seed, rates: spec.rates, records: kinds }, log);
}
