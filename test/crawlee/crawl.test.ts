// End to end: Crawlee's CheerioCrawler crawls the bundled sample crawl through a proxy on
// 127.0.0.1 (which serves sample/<host>/<path> for http://<host>/<path>, so the pages keep their
// real URLs), with the near-duplicate guard in the request handler and the mirror filter on
// enqueueLinks and before each fetch; the outcome is counted against sample/truth.json. Crawlee's
// storage goes to a temporary folder, and every socket the process opens is checked to be on loopback.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import net from 'node:net';
import dns from 'node:dns';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crawlDedup, type CrawlDedup } from '../../src/crawlee/index.js';

const SAMPLE = fileURLToPath(new URL('../../sample/', import.meta.url));
const truth = JSON.parse(readFileSync(join(SAMPLE, 'truth.json'), 'utf8')) as {
  mirrors: [string, string][];
  collections: { roots: Record<string, string> }[];
  nearDuplicates: string[][];
  identical: string[][];
  charsetTwins: [string, string][];
  unique: string[];
};

// --- every socket and DNS lookup the process makes, to check nothing leaves the machine ---------
const connections: string[] = [];
const lookups: string[] = [];
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
  const o = args[0] as { host?: string; port?: number; path?: string } | number;
  connections.push(typeof o === 'object' && o !== null ? (o.path ? `ipc:${o.path}` : `${o.host ?? 'localhost'}:${o.port}`) : `${String(args[1] ?? 'localhost')}:${String(o)}`);
  return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
} as typeof net.Socket.prototype.connect;
const lookup = dns.lookup;
(dns as { lookup: unknown }).lookup = (host: string, ...rest: unknown[]) => { lookups.push(host); return (lookup as (...a: unknown[]) => void)(host, ...rest); };

// Crawlee keeps its request queue and datasets here, never in the working tree.
const storage = mkdtempSync(join(tmpdir(), 'resemble-crawlee-'));
process.env.CRAWLEE_STORAGE_DIR = storage;
const hadStorageInCwd = existsSync(join(process.cwd(), 'storage'));
const { CheerioCrawler, Configuration, ProxyConfiguration } = await import('crawlee');

// Crawlee logs at its default level; what it writes during the crawls is kept and checked (no
// error, no skip told as a failure), not hidden.
const logged: string[] = [];
function capture<T>(run: () => Promise<T>): Promise<T> {
  const out = process.stdout.write.bind(process.stdout), err = process.stderr.write.bind(process.stderr);
  const keep = (chunk: unknown) => { logged.push(String(chunk)); return true; };
  process.stdout.write = keep as typeof process.stdout.write;
  process.stderr.write = keep as typeof process.stderr.write;
  return run().finally(() => { process.stdout.write = out; process.stderr.write = err; });
}

/** A forward proxy serving the sample's hosts from disk; anything else is refused and recorded. */
function sampleProxy(): Promise<{ server: Server; port: number; refused: string[]; served: string[] }> {
  const refused: string[] = [], served: string[] = [];
  const server = createServer((req, res) => {
    let url: URL;
    try { url = new URL(req.url!.startsWith('/') ? `http://${req.headers.host}${req.url}` : req.url!); } catch { res.writeHead(400).end(); return; }
    const hostDir = join(SAMPLE, url.hostname);
    let file = join(hostDir, decodeURIComponent(url.pathname));
    if (url.protocol !== 'http:' || !url.hostname.includes('.') || !existsSync(hostDir) || !file.startsWith(hostDir)) { refused.push(url.href); res.writeHead(404).end(); return; }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) { res.writeHead(404).end(); return; }
    served.push(url.href);
    const type = file.endsWith('.html') ? 'text/html' : file.endsWith('.css') ? 'text/css' : 'application/octet-stream';
    res.writeHead(200, { 'content-type': type }).end(readFileSync(file));
  });
  server.on('connect', (req, socket) => { refused.push(`CONNECT ${req.url}`); socket.end('HTTP/1.1 403 Forbidden\r\n\r\n'); });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as net.AddressInfo).port, refused, served })));
}

interface Outcome {
  dedup: CrawlDedup;
  /** Pages the request handler saw, in order, with the earlier page each duplicates. */
  pages: { url: string; duplicateOf: string | null }[];
  /** URLs Crawlee reported skipped (onSkippedRequest), distinct, and how many reports in all. */
  skipped: string[];
  skipReports: number;
  /** Crawlee's own totals of the run. */
  stats: { requestsFinished: number; requestsFailed: number };
  failed: string[];
  missing: string[];
  proxy: Awaited<ReturnType<typeof sampleProxy>>;
}

async function crawl(options?: Parameters<typeof crawlDedup>[0]): Promise<Outcome> {
  const proxy = await sampleProxy();
  const dedup = await crawlDedup(options);
  const pages: Outcome['pages'] = [];
  const skipped = new Set<string>(), failed: string[] = [], missing: string[] = [];
  let skipReports = 0;
  const hosts = readdirSync(SAMPLE).filter((h) => h.includes('.') && statSync(join(SAMPLE, h)).isDirectory()).sort();
  // The crawler of the README, plus the bookkeeping this test counts with.
  const crawler = new CheerioCrawler({
    proxyConfiguration: new ProxyConfiguration({ proxyUrls: [`http://127.0.0.1:${proxy.port}`] }),
    maxConcurrency: 1, // one page at a time: the crawl order, and so the outcome, is the same every run
    maxRequestRetries: 0,
    useSessionPool: false,
    // Crawlee's own skip report: links left out by the filter at enqueue time, and queued URLs the
    // attached queue skips once their mirror is recognized (reason 'filters' both)
    onSkippedRequest({ url, reason }) { if (reason === 'filters') { skipped.add(url); skipReports++; } },
    async requestHandler({ request, response, body, enqueueLinks }) {
      if (response.statusCode !== 200) { missing.push(request.url); return; } // links to pages the sample does not hold
      const duplicateOf = dedup.isDuplicate(request.loadedUrl ?? request.url, body.toString());
      pages.push({ url: request.loadedUrl ?? request.url, duplicateOf });
      // Links of duplicates are followed too (a mirror may hold pages the original lacks); the
      // filter leaves out the prefixes recognized as mirrors.
      await enqueueLinks({ transformRequestFunction: dedup.transformRequestFunction });
    },
    failedRequestHandler({ request }, error) { failed.push(`${request.url}: ${error.message}`); },
  }, new Configuration({ persistStorage: false, purgeOnStart: true }));
  await dedup.attach(crawler);
  const stats = await capture(() => crawler.run(hosts.map((h) => `http://${h}/index.html`)));
  return { dedup, pages, skipped: [...skipped], skipReports, stats: { requestsFinished: stats.requestsFinished, requestsFailed: stats.requestsFailed }, failed, missing, proxy };
}

// The default (content mode), and whole pages.
const out = await crawl();
out.proxy.server.close();
const whole = await crawl({ content: 'page' });
whole.proxy.server.close();

// The sample's content sketches as `resemble dups` makes them (the whole crawl streamed, templates
// learnt per site): the guard's content answers are checked against their resemblance where the
// whole-page truth and content resemblance part ways.
const { sketchCrawl } = await import('../../src/stream/sketch-crawl.js');
const { resemblance } = await import('../../src/index.js');
const batch = await sketchCrawl(SAMPLE, { sketch: { content: 'main' }, workers: 1 });
const batchDoc = new Map<string, number>();
batch.urls.forEach((u, d) => { if (!batchDoc.has(u)) batchDoc.set(u, d); });
/** Content resemblance of two pages in those sketches; 0 when either has too little content (it joins only byte-identical copies). */
const contentResemblance = (a: string, b: string) => {
  const x = batch.set.get(batchDoc.get(a)!), y = batch.set.get(batchDoc.get(b)!);
  return x.values.length === 0 || y.values.length === 0 ? 0 : resemblance(x, y);
};

test('skips go through Crawlee\'s own skip paths: reported skipped, never failed, never logged as errors', () => {
  for (const o of [out, whole]) {
    assert.is(o.stats.requestsFailed, 0, 'Crawlee counted failed requests');
    assert.is(o.skipReports, o.dedup.filter.skipped, 'every skip of the filter reported to Crawlee as skipped');
    assert.ok(o.dedup.filter.skippedBeforeFetch > 0 && o.dedup.filter.skippedAtEnqueue > 0, `${o.dedup.filter.skippedAtEnqueue} at enqueue, ${o.dedup.filter.skippedBeforeFetch} queued`);
    assert.is(o.stats.requestsFinished, o.pages.length + o.missing.length, 'finished requests are the pages handled');
  }
  const text = logged.join('');
  assert.ok(/INFO/.test(text), 'Crawlee logged at its default level');
  assert.not.match(text, /ERROR|SkippedUrlError|reached maximum retries/);
  console.log(`crawlee: ${out.stats.requestsFinished} requests finished, ${out.stats.requestsFailed} failed, ${out.skipReports} skips reported (${out.dedup.filter.skippedAtEnqueue} at enqueue, ${out.dedup.filter.skippedBeforeFetch} queued, never fetched); ${logged.length} log writes, none an error`);
});

test('the crawl stays on loopback and writes nothing to the working tree', () => {
  const outside = connections.filter((c) => !/^(127\.0\.0\.1|localhost|::1|ipc:)/.test(c));
  assert.equal(outside, [], 'sockets opened to other machines');
  assert.equal(lookups.filter((h) => !/^(127\.0\.0\.1|localhost|::1)$/.test(h)), [], 'DNS lookups of other hosts');
  assert.equal([...out.proxy.refused, ...whole.proxy.refused], [], 'requests for hosts outside the sample');
  assert.is(existsSync(join(process.cwd(), 'storage')), hadStorageInCwd, 'no ./storage left by Crawlee');
  assert.equal([...out.failed, ...whole.failed], []);
  assert.ok(out.pages.length > 100 && whole.pages.length > 100, `${out.pages.length} and ${whole.pages.length} pages crawled`);
});

/** The truth's duplicate groups (identical, near-duplicate, charset twins) merged where they overlap. */
function truthGroups(): Map<string, number> {
  const parent = new Map<string, string>();
  const find = (x: string): string => { while (parent.get(x) !== x) x = parent.get(x)!; return x; };
  for (const g of [...truth.identical, ...truth.nearDuplicates, ...truth.charsetTwins]) {
    for (const u of g) if (!parent.has(u)) parent.set(u, u);
    for (const u of g.slice(1)) parent.set(find(u), find(g[0]));
  }
  const ids = new Map<string, number>(), group = new Map<string, number>();
  for (const u of parent.keys()) { const r = find(u); if (!ids.has(r)) ids.set(r, ids.size); group.set(u, ids.get(r)!); }
  return group;
}

/** The sample file a URL names: fragment dropped, a folder's URL names its index.html. */
const fileOf = (url: string) => url.replace(/#.*$/, '').replace(/\/$/, '/index.html');

/** Planted duplicates fetched after the first of their group: caught, missed, wrongly matched (the first page of each group fetched, by group). */
function planted(out: Outcome) {
  const group = truthGroups();
  const firstOf = new Set<number>();
  const seenFiles = new Set<string>();
  let planted = 0, caught = 0, sameFile = 0;
  const missed: string[] = [], wrong: string[] = [];
  for (const p of out.pages) {
    // The same file again under another spelling (a folder URL, a fragment) is a true duplicate too.
    const file = fileOf(p.url);
    if (seenFiles.has(file)) { if (p.duplicateOf !== null && fileOf(p.duplicateOf) === file) sameFile++; else if (p.duplicateOf === null) missed.push(p.url); continue; }
    seenFiles.add(file);
    p.url = file;
    const g = group.get(p.url);
    if (g === undefined) { if (p.duplicateOf !== null) wrong.push(`${p.url} ≈ ${p.duplicateOf}`); continue; }
    if (!firstOf.has(g)) { firstOf.add(g); if (p.duplicateOf !== null && group.get(fileOf(p.duplicateOf)) !== g) wrong.push(`${p.url} ≈ ${p.duplicateOf}`); continue; }
    planted++;
    if (p.duplicateOf === null) missed.push(p.url);
    else if (group.get(fileOf(p.duplicateOf)) === g) caught++;
    else wrong.push(`${p.url} ≈ ${p.duplicateOf}`);
  }
  const firstUrl = new Map<number, string>();
  for (const p of out.pages) { const g = group.get(fileOf(p.url)); if (g !== undefined && !firstUrl.has(g)) firstUrl.set(g, fileOf(p.url)); }
  return { group, planted, caught, sameFile, missed, wrong, firstUrl };
}

test('whole pages: every planted near-duplicate page is skipped (caught by the guard or never fetched), and no other page', () => {
  const { group, planted: n, caught, sameFile, missed, wrong } = planted(whole);
  const skippedPlanted = whole.skipped.filter((u) => group.has(u)).length;
  console.log(`guard, whole pages: ${whole.pages.length} pages fetched (${whole.missing.length} links to pages the sample lacks); ${n} planted duplicates fetched after the first of their group, ${caught} caught, ${missed.length} missed; ${skippedPlanted} more planted duplicates never fetched (mirror prefixes); ${sameFile} pages fetched again under another spelling, caught; ${wrong.length} pages wrongly called duplicates`);
  assert.equal(missed, [], 'planted duplicates the guard let through');
  assert.equal(wrong, [], 'pages called duplicates of a page outside their planted group');
  assert.ok(caught > 50);
  for (const u of truth.unique) {
    const p = whole.pages.find((x) => x.url === u);
    if (p) assert.is(p.duplicateOf, null, `${u} is unique`);
  }
});

test('content mode (the default): planted duplicates caught unless their content parts ways, as in `resemble dups`; no other page', () => {
  const { group, planted: n, caught, sameFile, missed, wrong, firstUrl } = planted(out);
  const skippedPlanted = out.skipped.filter((u) => group.has(u)).length;
  // a miss is allowed only where the content sketches `dups` makes put the page under the threshold (0.5) from its group's
  // first page fetched, or one of them has too little content left to compare
  const apart = missed.filter((u) => contentResemblance(u, firstUrl.get(group.get(fileOf(u))!)!) < 0.5);
  console.log(`guard, content: ${out.pages.length} pages fetched (${out.missing.length} links to pages the sample lacks); ${n} planted duplicates fetched after the first of their group, ${caught} caught, ${missed.length} missed; ${skippedPlanted} more planted duplicates never fetched (mirror prefixes); ${sameFile} pages fetched again under another spelling, caught; ${wrong.length} pages wrongly called duplicates`);
  console.log(`  of those missed, under the threshold from their group's first page or too short, in \`dups\`' content sketches: ${apart.length} of ${missed.length}`);
  assert.equal(missed.filter((u) => !apart.includes(u)), [], 'planted duplicates the guard let through whose content sketches resemble');
  assert.ok(missed.length <= 5, `${missed.length} missed`);
  assert.equal(wrong, [], 'pages called duplicates of a page outside their planted group');
  assert.ok(caught > 50);
  for (const u of truth.unique) {
    const p = out.pages.find((x) => x.url === u);
    if (p) assert.is(p.duplicateOf, null, `${u} is unique`);
  }
});

test('every page under a planted mirror prefix is skipped once the mirror has been recognized', () => {
  const rules = out.dedup.rules();
  const planted = [...new Set([...Object.values(truth.collections[0].roots), ...truth.mirrors.flat().map((h) => `http://${h}/`)])];
  // No false mirrors: every page of the sample under a rule's prefix is under a planted mirror prefix.
  const sampleUrls: string[] = [];
  (function walk(dir: string, rel: string) {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p, `${rel}${name}/`); else if (name.endsWith('.html')) sampleUrls.push(`http://${rel}${name}`);
    }
  })(SAMPLE, '');
  for (const r of rules) {
    const stray = sampleUrls.filter((u) => u.startsWith(r.prefix) && !planted.some((p) => u.startsWith(p)));
    assert.equal(stray, [], `rule ${r.prefix} → ${r.of} covers pages that are not mirrored`);
  }
  let after = 0, skippedUnder = 0;
  const report: string[] = [];
  for (const p of planted) {
    const rule = rules.find((r) => p.startsWith(r.prefix) || r.prefix.startsWith(p));
    const fetched = out.pages.map((x, i) => ({ ...x, i })).filter((x) => x.url.startsWith(p));
    const skipped = out.skipped.filter((u) => u.startsWith(p)).length;
    skippedUnder += skipped;
    if (!rule) { report.push(`${p}: kept (${fetched.length} fetched)`); continue; }
    const late = fetched.filter((x) => x.i >= rule.recognizedAt);
    after += late.length;
    report.push(`${p}: recognized after ${rule.recognizedAt} pages as a mirror of ${rule.of} (${rule.evidence}/${rule.seen} matched); ${fetched.length - late.length} fetched before, ${late.length} after, ${skipped} skipped before fetching`);
  }
  console.log(report.join('\n'));
  console.log(`filter: ${out.dedup.filter.skippedAtEnqueue} URLs left out at enqueue, ${out.dedup.filter.skippedBeforeFetch} queued URLs not fetched`);
  assert.is(after, 0, 'pages fetched under a mirror prefix after it was recognized');
  // One copy of each mirror group is kept (the one crawled first): of the host group (3 hosts) and of
  // the collection (6 copies, 3 of them inside those hosts). Prefixes inside a kept one are kept with it.
  const unrecognized = planted.filter((p) => !rules.some((r) => p.startsWith(r.prefix) || r.prefix.startsWith(p)));
  const kept = unrecognized.filter((p) => !unrecognized.some((q) => q !== p && p.startsWith(q)));
  assert.ok(kept.length <= 2, `unrecognized planted prefixes: ${kept.join(', ')}`);
  assert.ok(skippedUnder > 50, `${skippedUnder} URLs under mirror prefixes never fetched`);
});

test.after(() => rmSync(storage, { recursive: true, force: true }));
test.run();
