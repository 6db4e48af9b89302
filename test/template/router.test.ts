// A site per manual root (src/template/sites.ts): the routing rules on their own, then the reason
// for them end to end: a manual with a heavy template beside a manual with a light one under one
// folder is cut as its mirror alone is cut, so the copies' content sketches are the same.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init } from '../../src/index.js';
import { SiteRouter, deepestKnownSite, enclosingSites, routeSites, sectionsOf } from '../../src/template/sites.js';
import { sketchCrawl } from '../../src/stream/sketch-crawl.js';
import { siteOfUrl } from '../../src/template/crawl-templates.js';
import { tempDir } from '../io/fixtures.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { articles, site } from './sites.js';
import { TemplateLearner } from '../../src/template/learner.js';
import { learnFromPages } from '../../src/template/learn.js';
import { mulberry32 } from '../../src/random.js';
import { STUB_MAX_BYTES, isRedirectStub, pageIdentity } from '../../src/template/stub.js';

await init();

/** Routes URLs in order, each page distinct (its index as its fingerprint). */
function sitesOf(urls: string[], trustAfter = 3): string[] {
  const r = new SiteRouter(trustAfter);
  return urls.map((u, i) => r.route(u, () => BigInt(i)).site);
}

test('manuals side by side: once a site has its first pages, a page under a folder beside their scope starts a site of its own', () => {
  const urls = [
    'http://h/manuals/octave/a.html', 'http://h/manuals/octave/b.html', 'http://h/manuals/octave/c.html',
    'http://h/manuals/rust/x.html', 'http://h/manuals/rust/ch1/y.html', 'http://h/manuals/octave/d.html', 'http://h/manuals/index.html',
  ];
  assert.equal(sitesOf(urls), ['h/manuals', 'h/manuals', 'h/manuals', 'h/manuals/rust', 'h/manuals/rust', 'h/manuals', 'h/manuals']);
});

test('first pages spread over the site\'s folders (breadth-first order): each folder is then a site of its own', () => {
  const urls = ['http://h/m/a/1.html', 'http://h/m/b/1.html', 'http://h/m/a/2.html', 'http://h/m/b/2.html', 'http://h/m/c/1.html', 'http://h/m/a/3/4.html', 'http://h/m/5.html'];
  assert.equal(sitesOf(urls), ['h/m', 'h/m', 'h/m', 'h/m/b', 'h/m/c', 'h/m/a', 'h/m']);
});

test('a deep scope splits where a path leaves it, at any depth, and sites nest', () => {
  const urls = [
    'http://h/pub/lang/rust/1.63/reference/a.html', 'http://h/pub/lang/rust/1.63/reference/b.html', 'http://h/pub/lang/rust/1.63/reference/c.html',
    'http://h/pub/lang/rust/rbe/a.html', 'http://h/pub/lang/rust/rbe/b.html', 'http://h/pub/lang/rust/rbe/hello/c.html',
    'http://h/pub/lang/rust/1.63/reference/x/d.html', 'http://h/pub/lang/rust/1.63/book/e.html', 'http://h/pub/lang/rust/f.html', 'http://h/pub/g.html',
    'http://h/pub/lang/rust/rbe/error/h.html', 'http://h/pub/lang/rust/rbe/i.html',
  ];
  assert.equal(sitesOf(urls), [
    'h/pub', 'h/pub', 'h/pub',
    'h/pub/lang/rust/rbe', 'h/pub/lang/rust/rbe', 'h/pub/lang/rust/rbe',
    // under the deep scope: the same site; beside it (and above it) as the scope's site says
    'h/pub', 'h/pub/lang/rust/1.63/book', 'h/pub', 'h/pub',
    // rbe's first pages were spread over its folders (its own and hello/): each folder of it is a site
    'h/pub/lang/rust/rbe/error', 'h/pub/lang/rust/rbe',
  ]);
});

test('pages with the same bytes count once towards a site\'s first pages', () => {
  const r = new SiteRouter(2);
  const same = () => 7n;
  assert.is(r.route('http://h/m/a/1.html', same).site, 'h/m');
  assert.is(r.route('http://h/m/a/1.html?copy', same).site, 'h/m');
  // still one distinct page: the next page, elsewhere, is the second (the scope widens to h/m, spread)
  assert.is(r.route('http://h/m/b/1.html', () => 8n).site, 'h/m');
  assert.is(r.route('http://h/m/c/1.html', () => 9n).site, 'h/m/c');
});

test('redirect stubs: small pages that redirect by a meta refresh, and nothing else', () => {
  const stub = (target: string) => `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Redirecting...</title><meta http-equiv="refresh" content="0;URL='${target}'"></head><body><p>Redirecting to <a href="${target}">${target}</a>.</p></body></html>`;
  assert.ok(isRedirectStub(stub('./a/b.html')));
  assert.ok(isRedirectStub(new TextEncoder().encode(stub('./a/b.html'))));
  assert.ok(isRedirectStub('<html><head><META HTTP-EQUIV=Refresh CONTENT="0; url=x.html"></head></html>'));
  assert.not.ok(isRedirectStub('<html><head><title>a page</title></head><body><p>short</p></body></html>'), 'a small page that does not redirect');
  assert.not.ok(isRedirectStub(stub('./a/b.html') + ' '.repeat(STUB_MAX_BYTES)), 'a page as long as a real one');
  assert.not.ok(isRedirectStub('<p>write &lt;meta http-equiv="refresh"&gt; to redirect</p>'), 'the words in text');
});

test('redirect stubs: bytes answer as their latin1 string does, with `<meta` in any case, anywhere, cut at the end', () => {
  const random = mulberry32(38);
  const parts = ['<', '<meta', '<MeTa', '<META ', ' http-equiv=', '"refresh"', 'Refresh', '>', ' ', 'x', '\u00e9', '<me', 'ta', '<m'];
  let stubs = 0;
  for (let t = 0; t < 3000; t++) {
    let text = t % 2 ? '<meta http-equiv=' : '';
    const k = Math.floor(random() * 8);
    for (let i = 0; i < k; i++) text += parts[Math.floor(random() * parts.length)];
    const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);
    const reference = /<meta\b[^>]*http-equiv\s*=\s*["']?refresh/i.test(String.fromCharCode(...bytes));
    assert.is(isRedirectStub(bytes), reference, JSON.stringify(text));
    if (reference) stubs++;
  }
  assert.ok(stubs > 50 && stubs < 2900, `${stubs} stubs of 3000: both answers tested`);
});

test('redirect stubs do not count among a site\'s first pages: the router and the learner wait for real ones', () => {
  const all = articles(31, 20);
  const real = site(32, 'r.example', all, Array.from({ length: 12 }, (_, i) => i), 30, 0).pages;
  const stubs = Array.from({ length: 5 }, (_, i) => `<html><head><meta http-equiv="refresh" content="0;URL='./moved/${i}.html'"></head><body><a href="./moved/${i}.html">moved</a></body></html>`);
  // five stubs first, then the real pages: the template is learnt from the first eight real ones
  const learner = new TemplateLearner<number>({ trustAfter: 8 });
  const calls = [...stubs, ...real].map((p, i) => learner.add(p, 'r.example/m', i));
  const released = calls.flat();
  // nothing until the eighth real page (call 12): then the five stubs and eight pages held; later pages at once
  assert.equal(calls.map((c) => c.length), [...Array(12).fill(0), 13, 1, 1, 1, 1]);
  const expected = learnFromPages(real.slice(0, 8), 'r.example/m', 0.5, 0.18);
  assert.is(released.length, 5 + 12, 'every page released');
  assert.ok(expected.site.heavy && expected.table.length > 0);
  for (const r of released) assert.equal(Array.from(r.table ?? []), Array.from(expected.table), `page ${r.item}`);
  // the router: stubs neither settle a site nor widen its scope
  const router = new SiteRouter(2);
  assert.is(router.route('http://h/m/x.html', () => undefined).site, 'h/m');
  assert.is(router.route('http://h/m/a/1.html', () => 1n).site, 'h/m');
  assert.is(router.route('http://h/m/a/2.html', () => 2n).site, 'h/m');
  // the scope is h/m/a (the stub at h/m/ did not widen it): a folder beside it is a site
  assert.is(router.route('http://h/m/b/1.html', () => 3n).site, 'h/m/b');
});

test('the fingerprint is asked for only while a site counts its first pages', () => {
  const r = new SiteRouter(2);
  let asked = 0;
  const fp = (v: bigint) => () => { asked++; return v; };
  r.route('http://h/m/a/1.html', fp(1n));
  r.route('http://h/m/a/2.html', fp(2n));
  r.route('http://h/m/a/3.html', fp(3n));
  r.route('http://h/m/a/sub/4.html', fp(4n));
  assert.is(asked, 2);
});

test('routeSites and sectionsOf give what a router gives page by page', () => {
  const urls = ['http://h/m/a/1.html', 'http://h/m/a/2.html', 'http://h/m/b/1.html', 'http://h/m/b/2.html', 'http://h/x.html', 'not a url'];
  const fps = BigUint64Array.from(urls, (_, i) => BigInt(i));
  const r = new SiteRouter(2);
  const expected = urls.map((u, i) => r.route(u, () => fps[i]));
  const got = routeSites(urls, fps, 2);
  assert.equal(got.sites, expected.map((e) => e.site));
  assert.equal(got.sites, ['h/m', 'h/m', 'h/m/b', 'h/m/b', 'h/', '/']);
  const s = sectionsOf(urls, fps, 2);
  assert.equal(s.hosts, ['h', 'h', 'h', 'h', 'h', '']);
  assert.equal(s.sections, ['m', 'm', 'm/b', 'm/b', '', '']);
});

test('held pages move to their folder\'s site when their site\'s first pages turn out spread; routeSites gives the sites the learner releases pages with', () => {
  const all = articles(41, 80);
  // two templated manuals under /m/ on one host, their pages interleaved (a crawler's order), and a page at /m/
  const a = site(42, 'a', all, Array.from({ length: 20 }, (_, i) => i), 30, 0).pages;
  const b = site(43, 'b', all, Array.from({ length: 20 }, (_, i) => 20 + i), 30, 0).pages;
  const pages: Array<{ url: string; html: string }> = [{ url: 'http://h/m/index.html', html: '<html><body><p>the manuals</p></body></html>' }];
  for (let i = 0; i < 20; i++) pages.push({ url: `http://h/m/a/p${i}.html`, html: a[i] }, { url: `http://h/m/b/p${i}.html`, html: b[i] });
  let router: SiteRouter | undefined;
  const learner = new TemplateLearner<number>({}, undefined, (_s, i, doc) => router!.route(pages[i].url, () => pageIdentity(doc)).site);
  router = new SiteRouter(learner.trustAfter);
  const released = [...pages.flatMap((p, i) => learner.add(p.html, router!.route(p.url, () => pageIdentity(p.html)).site, i, 'h')), ...learner.flush()];
  const siteOf = new Map(released.map((r) => [r.item, r.host]));
  assert.is(released.length, pages.length, 'every page released once');
  // every page of a manual with its manual's template, its first pages too
  for (let i = 1; i < pages.length; i++) assert.is(siteOf.get(i), i % 2 === 1 ? 'h/m/a' : 'h/m/b', pages[i].url);
  const tableA = learnFromPages(a.slice(0, 8), 'h/m/a', 0.5, 0.18).table;
  for (const r of released) if (r.host === 'h/m/a') assert.equal(Array.from(r.table ?? []), Array.from(tableA), `page ${r.item}`);
  // the batch routing gives the same sites
  const fps = BigUint64Array.from(pages, (p) => pageIdentity(p.html)!);
  assert.equal(routeSites(pages.map((p) => p.url), fps, 8).sites, pages.map((_, i) => siteOf.get(i)));
});

test('deepestKnownSite: the known site with the longest folder prefix of the page; enclosingSites: nearest first', () => {
  const known = new Map([['h/m', 1], ['h/m/b', 2], ['h/m/b/c/d', 3], ['h/', 4]]);
  assert.is(deepestKnownSite(known, 'http://h/m/b/c/x.html'), 'h/m/b');
  assert.is(deepestKnownSite(known, 'http://h/m/b/c/d/e/x.html'), 'h/m/b/c/d');
  assert.is(deepestKnownSite(known, 'http://h/m/z/x.html'), 'h/m');
  assert.is(deepestKnownSite(known, 'http://h/x.html'), 'h/');
  assert.is(deepestKnownSite(known, 'http://h/q/x.html'), undefined);
  assert.is(deepestKnownSite(known, 'http://other/m/x.html'), undefined);
  assert.equal(enclosingSites('h/a/b/c'), ['h/a/b', 'h/a']);
  assert.equal(enclosingSites('h/a'), []);
  assert.equal(enclosingSites('h/'), []);
  assert.equal(enclosingSites('h:8080/a/b'), ['h:8080/a']);
});

// End to end: host A keeps a light manual (plain pages, first in the walk) and a heavily templated
// one side by side under /manuals/; host B mirrors the templated one alone. The templated pages'
// content sketches must be the same on both hosts; with sites cut at the first folder (the
// earlier rule, given here as siteOf) they are not.
test('a templated manual beside a light one under one folder is cut as its mirror alone is', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const all = articles(11, 40);
    const heavy = site(12, 'manual', all, Array.from({ length: 30 }, (_, i) => i), 40, 0);
    const lines: string[] = [];
    for (let i = 0; i < 20; i++) {
      const words = all[(i + 5) % 40].paragraphs.join(' ');
      lines.push(JSON.stringify({ url: `http://a.example/manuals/alpha/p${i}.html`, html: `<html><head><title>alpha ${i}</title></head><body><p>${words}</p></body></html>` }));
    }
    heavy.pages.forEach((html, i) => lines.push(JSON.stringify({ url: `http://a.example/manuals/beta/p${i}.html`, html })));
    heavy.pages.forEach((html, i) => lines.push(JSON.stringify({ url: `http://b.example/beta/p${i}.html`, html })));
    const path = join(dir, 'crawl.jsonl');
    writeFileSync(path, lines.join('\n') + '\n');
    const sameSketches = (s: Awaited<ReturnType<typeof sketchCrawl>>) => {
      let same = 0;
      for (let i = 0; i < heavy.pages.length; i++) {
        const a = 20 + i, b = 20 + heavy.pages.length + i;
        const va = s.set.values.subarray(s.set.offsets[a], s.set.offsets[a + 1]).join();
        const vb = s.set.values.subarray(s.set.offsets[b], s.set.offsets[b + 1]).join();
        if (va === vb) same++;
      }
      return same;
    };
    const routed = await sketchCrawl(path, { sketch: { content: 'main' }, workers: 1 });
    assert.is(sameSketches(routed), heavy.pages.length, 'every templated page sketched alike on both hosts');
    assert.ok([...routed.templates!.bySite.keys()].includes('a.example/manuals/beta'), 'the templated manual is a site of its own');
    const firstFolder = await sketchCrawl(path, { sketch: { content: 'main' }, workers: 1, siteOf: siteOfUrl });
    assert.ok(sameSketches(firstFolder) < heavy.pages.length / 2, `cut at the first folder, the copies differ (${sameSketches(firstFolder)} alike)`);
  } finally {
    cleanup();
  }
});

test.run();
