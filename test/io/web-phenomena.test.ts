// What real web crawls hold besides pages, read from small WARCs written here: URL variants joined
// to their page with the rule, host aliases, soft-404s per host, redirects as edges (loops and bad
// Locations reported), stylesheets and scripts skipped by content type, revisits across sweeps,
// addresses that are not IPs. Each expectation is worked out by hand from the records written.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ReadError } from '../../src/graph/document.js';
import { readCrawl } from '../../src/io/crawl.js';
import { bodyKey, CrawlPhenomena, ROLE_PAGE, ROLE_SOFT_404, ROLE_VARIANT } from '../../src/io/crawl-phenomena.js';
import type { SkipEvent } from '../../src/io/options.js';
import { urlVariant } from '../../src/io/url-variants.js';
import { concat, httpResponse, tempDir, warcRecord } from './fixtures.js';

const { dir, cleanup } = tempDir();
const page = (title: string, words = 40) => `<html><head><title>${title}</title></head><body><p>${Array.from({ length: words }, (_, i) => `${title.toLowerCase().replace(/\W/g, '')}${i}`).join(' ')}</p></body></html>`;
const STOCK = '<html><head><title>Page not found</title></head><body><h1>Oops</h1><p>Nothing was found at this location. This site is hosted by Example Hosting.</p></body></html>';
const own = (path: string) => `<html><body><h1>Not Found</h1><p>The requested document ${path} was not found on this server.</p></body></html>`;
const redirect = (url: string, status: number, location: string, ip = '192.0.2.1') => httpResponse(url, `<a href="${location}">moved</a>`, { status, ip, extraHttp: [`Location: ${location}`] });

/** Writes records as one gzip member each; returns the path. */
function warc(name: string, records: Uint8Array[]): string {
  const path = join(dir, name);
  writeFileSync(path, concat(records.map((r) => new Uint8Array(gzipSync(r)))));
  return path;
}

/** Reads the inputs with a collector; returns the documents' URLs, the report, errors and skips. */
async function read(inputs: string[], options: { allText?: boolean } = {}) {
  const collector = new CrawlPhenomena();
  const errors: ReadError[] = [], skips: SkipEvent[] = [];
  const urls: string[] = [], ips: (string | undefined)[] = [];
  for await (const doc of readCrawl(inputs, { ...options, onError: (e) => errors.push(e), onSkip: (s) => { skips.push(s); collector.skipped(s); } })) {
    collector.observe(doc, urls.length);
    urls.push(doc.url);
    ips.push(doc.ip);
  }
  return { urls, ips, report: collector.report(), errors, skips };
}

test('urlVariant: each rule takes its part off, and says so', () => {
  const cases: Array<[string, string, string[]]> = [
    ['http://h.example/a.html?sid=0123456789abcdef0123456789abcdef', 'http://h.example/a.html', ['session-id']],
    ['http://h.example/dir/index.html;jsessionid=ABC123', 'http://h.example/dir/', ['session-id', 'index-html']],
    ['http://h.example/a.html?PHPSESSID=abc&x=1', 'http://h.example/a.html?x=1', ['session-id']],
    ['http://h.example/a.html?utm_source=n&utm_medium=e', 'http://h.example/a.html', ['tracking']],
    ['http://h.example/a.html?fbclid=IwAR12', 'http://h.example/a.html', ['tracking']],
    ['http://h.example/a.html?print=1', 'http://h.example/a.html', ['print']],
    ['https://h.example/a.html', 'http://h.example/a.html', ['https']],
    ['http://www.h.example/a.html', 'http://h.example/a.html', ['www']],
    ['http://h.example/a.html?page=2', 'http://h.example/a.html?page=2', []],
    ['http://h.example/a.html?s=term', 'http://h.example/a.html?s=term', []],
  ];
  for (const [url, key, rules] of cases) {
    const v = urlVariant(url)!;
    assert.is(v.key, key, url);
    assert.equal(v.rules, rules, url);
  }
  assert.is(urlVariant('not a url'), undefined);
});

test('bodyKey: a not-found page naming its path hashes the same for every path; other bodies differ', () => {
  assert.is(bodyKey(new TextEncoder().encode(own('/a/b.html')), 'http://h.example/a/b.html'), bodyKey(new TextEncoder().encode(own('/c.html')), 'http://h.example/c.html'));
  assert.is.not(bodyKey(new TextEncoder().encode(page('One')), 'http://h.example/1'), bodyKey(new TextEncoder().encode(page('Two')), 'http://h.example/1'));
});

test('variants join their page with the rule; the www. alias is a host alias', async () => {
  const ip = '192.0.2.1';
  const path = warc('variants.warc.gz', [
    httpResponse('http://h.example/docs/', page('Index'), { ip }),
    httpResponse('http://h.example/docs/a.html', page('Alpha'), { ip }),
    httpResponse('http://h.example/docs/b.html', page('Beta'), { ip }),
    httpResponse('http://h.example/docs/index.html', page('Index'), { ip }),
    httpResponse('http://h.example/docs/a.html?utm_source=x', page('Alpha'), { ip }),
    httpResponse('https://h.example/docs/b.html', page('Beta'), { ip }),
    httpResponse('http://www.h.example/docs/a.html', page('Alpha'), { ip }),
    httpResponse('http://h.example/docs/b.html?print=1', `<html><body class="print">${page('Beta')}</body></html>`, { ip }),
    httpResponse('http://h.example/docs/a.html?page=2', page('Other'), { ip }),
  ]);
  const { urls, report } = await read([path]);
  assert.is(urls.length, 9);
  const byUrl = new Map(report.variants.map((v) => [v.url, v]));
  assert.equal(byUrl.get('http://h.example/docs/index.html')?.rules, ['index-html']);
  assert.is(byUrl.get('http://h.example/docs/index.html')?.page, 'http://h.example/docs/');
  assert.equal(byUrl.get('http://h.example/docs/a.html?utm_source=x')?.rules, ['tracking']);
  assert.equal(byUrl.get('https://h.example/docs/b.html')?.rules, ['https']);
  assert.equal(byUrl.get('http://www.h.example/docs/a.html')?.rules, ['www']);
  assert.equal(byUrl.get('http://h.example/docs/b.html?print=1')?.rules, ['print']);
  assert.is(byUrl.has('http://h.example/docs/a.html?page=2'), false, 'another query is another page');
  assert.is(report.variants.length, 5);
  for (const v of report.variants) assert.is(report.roles[v.id], ROLE_VARIANT);
  assert.is([...report.roles].filter((r) => r === ROLE_PAGE).length, 4);
  const aliases = report.hostAliases.map((a) => `${a.host} ${a.alias} ${a.rule} ${a.ip}`).sort();
  assert.equal(aliases, ['http://h.example http://www.h.example www 192.0.2.1', 'http://h.example https://h.example https 192.0.2.1']);
});

test('soft-404s: one body for many unrelated paths is flagged per host, the stock page on several hosts; a parked host is warned of', async () => {
  const records: Uint8Array[] = [];
  for (const p of ['a', 'b', 'c', 'd']) records.push(httpResponse(`http://site.example/doc/${p}.html`, page(`Doc ${p}`), { ip: '192.0.2.5' }));
  // the site's own not-found page for three unrelated paths, naming each
  for (const p of ['/old/x.html', '/download-1.html', '/search?q=faq']) records.push(httpResponse(`http://site.example${p}`, own(p), { ip: '192.0.2.5' }));
  // a parked domain: the hoster's stock page for every path
  for (const p of ['/', '/about.html', '/docs/intro.html', '/x/y/z.html']) records.push(httpResponse(`http://parked.example${p}`, STOCK, { ip: '192.0.2.5' }));
  // two identical pages on one host (a real duplicate, not a soft-404: only two paths)
  records.push(httpResponse('http://site.example/doc/copy-of-a.html', page('Doc a'), { ip: '192.0.2.5' }));
  const { urls, report, errors } = await read([warc('soft.warc.gz', records)]);
  assert.is(errors.length, 0);
  const flagged = report.soft404.map((s) => s.url).sort();
  assert.equal(flagged, ['http://parked.example/', 'http://parked.example/about.html', 'http://parked.example/docs/intro.html', 'http://parked.example/x/y/z.html',
    'http://site.example/download-1.html', 'http://site.example/old/x.html', 'http://site.example/search?q=faq']);
  for (const s of report.soft404) assert.is(report.roles[s.id], ROLE_SOFT_404);
  assert.is(report.roles[urls.indexOf('http://site.example/doc/copy-of-a.html')], ROLE_PAGE);
  const hosts = new Map(report.soft404Hosts.map((h) => [h.host, h]));
  assert.is(hosts.get('parked.example')?.every, true);
  assert.is(hosts.get('site.example')?.every, false);
  assert.is(hosts.get('site.example')?.paths, 3);
  assert.is(report.warnings.length, 1);
  assert.match(report.warnings[0].message, /every one of the 4 paths of parked\.example/);
});

test('a folder\'s index page written under names of its own in that folder is one page, not a soft-404; a stock page at three paths besides a folder still is', async () => {
  const ip = '192.0.2.6';
  // DocBook's reference as the xmlsoft generator writes it: html/index.html, html/book1.html and html/lib.html the same page
  const toc = page('Reference Manual');
  const records: Uint8Array[] = [
    httpResponse('http://xml.example/docs/html/', toc, { ip }),
    httpResponse('http://xml.example/docs/html/book1.html', toc, { ip }),
    httpResponse('http://xml.example/docs/html/lib.html', toc, { ip }),
    httpResponse('http://xml.example/docs/html/tree.html', page('Tree'), { ip }),
    // the same three names on a mirror of it: the body on two hosts is no evidence either
    httpResponse('http://mirror.example/xml/html/', toc, { ip: '192.0.2.7' }),
    httpResponse('http://mirror.example/xml/html/book1.html', toc, { ip: '192.0.2.7' }),
    httpResponse('http://mirror.example/xml/html/lib.html', toc, { ip: '192.0.2.7' }),
    // a host answering its stock page for an empty folder and three paths in it: still three paths
    ...['/old/', '/old/a.html', '/old/b.html', '/old/c.html'].map((p) => httpResponse(`http://hosted.example${p}`, STOCK, { ip })),
    // and for a folder whose other page is elsewhere: the folder counts
    ...['/gone/', '/a/x.html', '/b/y.html'].map((p) => httpResponse(`http://other.example${p}`, STOCK, { ip })),
  ];
  const { report } = await read([warc('index-names.warc.gz', records)]);
  const flagged = report.soft404.map((s) => s.url).sort();
  assert.equal(flagged, ['http://hosted.example/old/', 'http://hosted.example/old/a.html', 'http://hosted.example/old/b.html', 'http://hosted.example/old/c.html',
    'http://other.example/a/x.html', 'http://other.example/b/y.html', 'http://other.example/gone/']);
  assert.equal(report.soft404Hosts.map((h) => h.host), ['hosted.example', 'other.example']);
});

test('a folder page naming its folder\'s path elsewhere (a link to its source) joins its index.html: the same bytes', async () => {
  const ip = '192.0.2.8';
  // MkDocs writes each page's canonical URL and the link to its source: the folder's path /docs/ext/ is in both
  const body = '<html><head><link rel="canonical" href="https://md.example/docs/ext/index.html"></head><body><h1>Extensions</h1>'
    + '<a href="https://github.example/md/edit/master/docs/ext/index.md">Edit</a><p>Extensions change how text is read.</p></body></html>';
  const records = [
    httpResponse('http://md.example/docs/ext/', body, { ip }),
    httpResponse('http://md.example/docs/ext/index.html', body, { ip }),
    // another page that only names its path differs from it
    httpResponse('http://md.example/docs/other/', body.replace('Extensions change', 'Others change'), { ip }),
    httpResponse('http://md.example/docs/other/index.html', body.replace('Extensions change', 'Other pages change'), { ip }),
  ];
  const { report } = await read([warc('names-folder.warc.gz', records)]);
  assert.equal(report.variants.map((v) => `${v.url} ${v.page} ${v.rules.join()}`), ['http://md.example/docs/ext/index.html http://md.example/docs/ext/ index-html']);
  // the folder's key and the index file's key differ (each takes out its own path): only the bytes join them
  const enc = new TextEncoder();
  assert.is.not(bodyKey(enc.encode(body), 'http://md.example/docs/ext/'), bodyKey(enc.encode(body), 'http://md.example/docs/ext/index.html'));
});

test('redirects are edges, never pages: chains followed, relative Locations resolved, loops and broken Locations reported', async () => {
  const path = warc('redirects.warc.gz', [
    httpResponse('http://h.example/docs/a.html', page('Alpha'), { ip: '192.0.2.1' }),
    redirect('http://h.example/docs/a.htm', 301, 'http://h.example/docs/a.html'),
    redirect('http://h.example/latest/a', 301, 'http://h.example/latest/a/'),
    redirect('http://h.example/latest/a/', 302, '/docs/a.html'),
    redirect('http://h.example/loop-a/', 302, 'http://h.example/loop-b/'),
    redirect('http://h.example/loop-b/', 302, 'http://h.example/loop-a/'),
    redirect('http://h.example/broken/', 301, 'http://[broken'),
    httpResponse('http://h.example/docs/b.html', page('Beta'), { ip: '192.0.2.1' }),
  ]);
  const { urls, report, errors, skips } = await read([path]);
  assert.equal(urls, ['http://h.example/docs/a.html', 'http://h.example/docs/b.html'], 'only the pages are documents');
  assert.is(skips.filter((s) => s.reason === 'redirect').length, 5);
  assert.is(skips.filter((s) => s.reason === 'status').length, 0);
  const edges = new Map(report.redirects.map((r) => [r.from, r]));
  assert.is(edges.get('http://h.example/docs/a.htm')?.final, 'http://h.example/docs/a.html');
  assert.is(edges.get('http://h.example/latest/a')?.final, 'http://h.example/docs/a.html');
  assert.is(edges.get('http://h.example/latest/a')?.hops, 2);
  assert.is(edges.get('http://h.example/latest/a/')?.relative, true);
  assert.is(edges.get('http://h.example/latest/a/')?.page, true);
  assert.is(edges.has('http://h.example/loop-a/'), false);
  assert.is(report.errors.length, 1);
  assert.match(report.errors[0].message, /redirect loop: "http:\/\/h\.example\/loop-a\/" → "http:\/\/h\.example\/loop-b\/" → "http:\/\/h\.example\/loop-a\/"/);
  assert.is(errors.length, 1);
  assert.match(errors[0].message, /redirect 301 of "http:\/\/h\.example\/broken\/": its Location "http:\/\/\[broken" is not a URL; skipped/);
});

test('stylesheets, scripts, JSON and robots.txt are not pages unless allText; counted by content type', async () => {
  const path = warc('assets.warc.gz', [
    httpResponse('http://h.example/robots.txt', 'User-agent: *\nDisallow: /x\n', { contentType: 'text/plain' }),
    httpResponse('http://h.example/a.html', page('Alpha')),
    httpResponse('http://h.example/s.css', 'body { color: red }', { contentType: 'text/css' }),
    httpResponse('http://h.example/t.css', 'p { margin: 0 }', { contentType: 'text/css; charset=utf-8' }),
    httpResponse('http://h.example/x.js', 'var x = 1;', { contentType: 'application/javascript' }),
    httpResponse('http://h.example/d.json', '{"a": 1}', { contentType: 'application/json' }),
    httpResponse('http://h.example/notes.txt', 'plain text notes, a page', { contentType: 'text/plain' }),
  ]);
  const plain = await read([path]);
  assert.equal(plain.urls, ['http://h.example/a.html', 'http://h.example/notes.txt']);
  assert.equal(plain.report.notPages, { 'text/plain': 1, 'text/css': 2, 'application/javascript': 1, 'application/json': 1 });
  const all = await read([path], { allText: true });
  assert.is(all.urls.length, 7);
  assert.equal(all.report.notPages, {});
});

test('revisits of the second sweep join the first sweep\'s page across files; a revisit of a missing record is reported', async () => {
  const digest = 'sha1:2SUBQMKYHZBLXS2IXOG7WWV5PPJ5JRXE';
  const body = page('Alpha');
  const one = warc('sweep-1.warc.gz', [
    warcRecord('response', { 'WARC-Target-URI': 'http://h.example/a.html', 'WARC-Date': '2024-03-04T09:00:00Z', 'WARC-Payload-Digest': digest, 'WARC-IP-Address': '192.0.2.1', 'Content-Type': 'application/http; msgtype=response' },
      `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n${body}`),
    httpResponse('http://h.example/b.html', page('Beta'), { ip: '192.0.2.1' }),
  ]);
  const revisit = (uri: string, refersId: string, d: string, profile = 'identical-payload-digest') => warcRecord('revisit', {
    'WARC-Target-URI': uri, 'WARC-Date': '2024-04-08T09:00:00Z', 'WARC-IP-Address': '192.0.2.1', 'WARC-Profile': `http://netpreserve.org/warc/1.1/revisit/${profile}`,
    'WARC-Refers-To-Target-URI': uri, 'WARC-Refers-To': refersId, 'WARC-Payload-Digest': d, 'Content-Type': 'application/http; msgtype=response',
  }, 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n');
  const two = warc('sweep-2.warc.gz', [
    revisit('http://h.example/a.html', '<urn:uuid:11111111-1111-4111-a111-111111111111>', digest),
    revisit('http://h.example/b.html', '<urn:uuid:22222222-2222-4222-a222-222222222222>', 'sha1:BBBB', 'server-not-modified'),
    httpResponse('http://h.example/b.html', page('Beta changed'), { ip: '192.0.2.1' }),
    revisit('http://h.example/never.html', '<urn:uuid:00000000-0000-4000-a000-000000000000>', 'sha1:AAAA'),
  ]);
  const { urls, report, skips } = await read([one, two]);
  assert.equal(urls, ['http://h.example/a.html', 'http://h.example/b.html', 'http://h.example/b.html']);
  // the re-capture of b.html (a new response) joins its page
  assert.equal(report.variants.map((v) => [v.id, v.pageId, v.rules]), [[2, 1, ['recapture']]]);
  const revisits = skips.filter((s) => s.reason === 'revisit');
  assert.is(revisits.length, 3);
  const said = revisits.filter((s) => s.message);
  assert.is(said.length, 1);
  assert.match(said[0].message!, /^revisit of "http:\/\/h\.example\/never\.html": the record it refers to \(urn:uuid:00000000-0000-4000-a000-000000000000\) was not read before it/);
  // read alone, the second sweep's revisits of pages not read say so
  const alone = await read([two]);
  assert.is(alone.skips.filter((s) => s.reason === 'revisit' && /was not read before it/.test(s.message ?? '')).length, 3);
});

test('a WARC-IP-Address that is not an IP is reported; the page is kept without it, the others keep theirs', async () => {
  const path = warc('ips.warc.gz', [
    httpResponse('http://h.example/a.html', page('Alpha'), { ip: '192.0.2.1' }),
    httpResponse('http://h.example/b.html', page('Beta'), { ip: 'unknown-host' }),
    httpResponse('http://h.example/c.html', page('Gamma'), { ip: '2001:db8::5' }),
  ]);
  const { urls, ips, errors } = await read([path]);
  assert.is(urls.length, 3);
  assert.equal(ips, ['192.0.2.1', undefined, '2001:db8::5']);
  assert.is(errors.length, 1);
  assert.match(errors[0].message, /WARC-IP-Address "unknown-host" of "http:\/\/h\.example\/b\.html" is not an IP address/);
});

test('collections: soft-404s and URL variants are no evidence of a replicated collection', async () => {
  const { readForCollections } = await import('../../src/collections/stream.js');
  const { parseSimilarity } = await import('../../src/collections/similarity.js');
  const { init } = await import('../../src/index.js');
  await init();
  const records: Uint8Array[] = [];
  // two parked hosts answering the same paths with the hoster's stock page, and a real page with a variant
  for (const h of ['parked-a.example', 'parked-b.example']) for (const p of ['/', '/docs/a.html', '/docs/b.html', '/docs/c.html', '/about.html']) records.push(httpResponse(`http://${h}${p}`, STOCK, { ip: '192.0.2.9' }));
  records.push(httpResponse('http://site.example/a.html', page('Alpha')), httpResponse('http://site.example/a.html?utm_source=x', page('Alpha')));
  const path = warc('collections.warc.gz', records);
  const sim = parseSimilarity();
  const on = await readForCollections([path], sim, { workers: 1 });
  const off = await readForCollections([path], sim, { workers: 1, phenomena: false });
  const groups = (l: Uint32Array) => new Set(l).size;
  assert.is(groups(off.similar.label), 2, 'read as pages: the stock page is one text on ten pages, the variant one with its page');
  assert.is(groups(on.similar.label), 12, 'every soft-404 and the variant apart');
  assert.is(on.phenomena!.soft404.length, 10);
  assert.is(on.phenomena!.variants.length, 1);
});

test('mirrors --phenomena FILE lists them, one JSON line each; the summary says them on stderr; the www. alias is an alias record', async () => {
  const { main } = await import('../../src/cli/main.js');
  const { readFileSync } = await import('node:fs');
  const records: Uint8Array[] = [];
  for (const p of ['a', 'b', 'c', 'd', 'e', 'f']) {
    records.push(httpResponse(`http://origin.example/doc/${p}.html`, page(`Doc ${p}`), { ip: '192.0.2.5' }));
    records.push(httpResponse(`http://mirror.example/doc/${p}.html`, page(`Doc ${p}`), { ip: '192.0.2.6' }));
    records.push(httpResponse(`http://www.origin.example/doc/${p}.html`, page(`Doc ${p}`), { ip: '192.0.2.5' }));
  }
  records.push(httpResponse('http://origin.example/doc/a.html?utm_source=x', page('Doc a'), { ip: '192.0.2.5' }));
  for (const p of ['/x.html', '/y/z.html', '/q.html', '/r/s.html', '/t.html']) records.push(httpResponse(`http://parked.example${p}`, STOCK, { ip: '192.0.2.5' }));
  records.push(redirect('http://origin.example/doc/a.htm', 301, 'http://origin.example/doc/a.html', '192.0.2.5'));
  records.push(httpResponse('http://origin.example/style.css', 'p { margin: 0 }', { contentType: 'text/css', ip: '192.0.2.5' }));
  const input = warc('cli.warc.gz', records);
  const file = join(dir, 'phenomena.jsonl');
  let out = '', err = '';
  const code = await main(['mirrors', input, '--algorithm', 'paths', '--min-urls', '1', '--phenomena', file], { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c), isTTY: false } });
  assert.is(code, 0, err);
  assert.match(err, /web crawl: 7 URLs were other spellings of a crawled page, read as that page \(www 6, tracking 1\); 5 error pages served as ordinary pages \(soft 404s\) on 1 host left out \(1 answering every path so\); 1 host answers under a second name \(www\.\), read as one; 1 redirect read as a link; 1 records that are not pages skipped \(text\/css 1\)/);
  assert.match(err, /W_SOFT_404/);
  const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const kinds: Record<string, number> = {};
  for (const l of lines) kinds[l.kind] = (kinds[l.kind] ?? 0) + 1;
  assert.equal(kinds, { variant: 7, 'soft-404': 5, 'soft-404-host': 1, alias: 1, redirect: 1, 'not-page': 1 });
  const printed = out.trim().split('\n').map((l) => JSON.parse(l));
  assert.ok(printed.some((r) => r.relation === 'alias' && r.a === 'origin.example' && r.b === 'www.origin.example'));
  assert.not.ok(printed.some((r) => r.relation !== 'alias' && [r.a, r.b].includes('parked.example')), 'the parked host takes no part');
  assert.not.ok(printed.some((r) => r.relation !== 'alias' && [r.a, r.b].includes('www.origin.example')), 'the alias is not ranked');
});

test.after(cleanup);
test.run();
