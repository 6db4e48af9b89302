// The guard with learnt URL rules (collections/url-rules): a URL the rules spell as one already
// fetched or queued is skipped through the filter's skip paths (left out at enqueue time, or
// skipped by the attached queue as Crawlee skips a request), never fetched; distinct pages kept.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { crawlDedup, UrlFilter, UrlRuleLearner, UrlRules, type RequestLike } from '../../src/crawlee/index.js';
import { ResembleError } from '../../src/errors.js';

/** Rules learnt from a small crawl: a session parameter, a mirror prefix. */
function learnt(): UrlRules {
  const l = new UrlRuleLearner();
  for (let i = 0; i < 6; i++) {
    const page = `http://docs.example.org/guide/p${i}.html`;
    l.addCluster([page, `http://mirror.example.net/docs/guide/p${i}.html`, ...(i % 2 ? [`${page}?sid=${'f0'.repeat(16)}${i}`] : [])]);
    l.addUrl(`http://docs.example.org/list?page=${i}`);
  }
  // the file a crawl loads: what `resemble collections --avoid --rules FILE` writes
  return UrlRules.load(l.learn().save());
}

test('the rules learnt and loaded: a session parameter and the mirror prefix', () => {
  assert.equal(learnt().rules.map((r) => `${r.kind} ${r.name ?? `${r.from} ${r.to}`}`), ['param sid', 'prefix http://mirror.example.net/docs/ http://docs.example.org/']);
});

test('enqueue time: a link the rules spell as a URL already queued is left out; the first spelling and distinct pages are kept', () => {
  const rules = learnt();
  const filter = new UrlFilter([rules]);
  const keep = (url: string) => { const r = { url }; assert.is(filter.transformRequestFunction(r), r, url); };
  const drop = (url: string) => assert.is(filter.transformRequestFunction({ url }), false, url);
  keep('http://mirror.example.net/docs/guide/new.html');
  drop('http://docs.example.org/guide/new.html');
  drop('http://docs.example.org/guide/new.html?sid=0123456789abcdef0123456789abcdef');
  keep('http://mirror.example.net/docs/guide/new.html');
  keep('http://docs.example.org/list?page=9');
  keep('http://docs.example.org/list?page=10');
  assert.equal([filter.skippedAtEnqueue, filter.skippedBeforeFetch, rules.skipped], [2, 0, 2]);
});

test('fetch time: the attached queue skips a queued URL whose spelling was fetched, Crawlee\'s way', async () => {
  const rules = learnt();
  const queued: RequestLike[] = ['http://docs.example.org/guide/a.html', 'http://docs.example.org/guide/a.html?sid=00112233445566778899aabbccddeeff', 'http://mirror.example.net/docs/guide/a.html', 'http://docs.example.org/guide/b.html'].map((url) => ({ url }));
  const handled: RequestLike[] = [];
  const reported: Array<{ url: string; reason: string }> = [];
  const queue = {
    fetchNextRequest: async () => queued.shift() ?? null,
    markRequestHandled: async (r: RequestLike) => { handled.push(r); },
  };
  const crawler = { getRequestQueue: async () => queue, handleSkippedRequest: async (o: { url: string; reason: string }) => { reported.push(o); } };
  const dedup = await crawlDedup({ urlRules: rules, learnMirrors: false });
  await dedup.attach(crawler);
  const fetched: string[] = [];
  for (let r = await queue.fetchNextRequest(); r; r = await queue.fetchNextRequest()) {
    fetched.push(r.url);
    dedup.isDuplicate(r.url, `<p>page ${r.url} with its own words, sentences and paragraphs of text</p>`);
  }
  assert.equal(fetched, ['http://docs.example.org/guide/a.html', 'http://docs.example.org/guide/b.html']);
  assert.equal(handled.map((r) => [r.url, r.state, r.skippedReason, r.noRetry]), [
    ['http://docs.example.org/guide/a.html?sid=00112233445566778899aabbccddeeff', 7, 'filters', true],
    ['http://mirror.example.net/docs/guide/a.html', 7, 'filters', true],
  ]);
  assert.equal(reported.map((r) => r.reason), ['filters', 'filters']);
  assert.equal([dedup.filter.skippedBeforeFetch, dedup.urlRules?.skipped], [2, 2]);
});

test('a page fetched without being asked about (a start URL, a redirect target) counts as seen', async () => {
  const dedup = await crawlDedup({ urlRules: learnt(), learnMirrors: false });
  dedup.isDuplicate('http://mirror.example.net/docs/guide/start.html', '<p>the start page of the crawl, fetched first of all</p>');
  assert.is(dedup.transformRequestFunction({ url: 'http://docs.example.org/guide/start.html' }), false);
  try { await crawlDedup({ urlRules: { shouldSkip: () => true } as never }); assert.unreachable(); } catch (e) { assert.ok(e instanceof ResembleError && e.code === 'E_OPTION', String(e)); }
});

test.run();
