// The mirror learner and the URL filter alone: what counts as evidence, when a prefix is
// recognized, and a saved avoid-list (the collections' AvoidList) as one of the filter's sources.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AvoidList } from '../../src/collections/avoid.js';
import { MirrorLearner, UrlFilter, SkippedUrlError, crawlDedup } from '../../src/crawlee/index.js';
import { ResembleError } from '../../src/errors.js';

const none = { pages: 0, similarPages: 0, skippedPages: 0, totalBytes: 0, savedBytes: 0, similarPagesAfter: 0 };

test('a prefix is recognized after minEvidence matches with the same path suffix making minShare of its pages', () => {
  const m = new MirrorLearner({ minEvidence: 3, minShare: 0.8 });
  for (const p of ['a.html', 'b.html', 'c/d.html']) m.observe(`http://orig.example/doc/${p}`, null);
  m.observe('http://copy.example/mirror/doc/a.html', 'http://orig.example/doc/a.html');
  m.observe('http://copy.example/mirror/doc/b.html', 'http://orig.example/doc/b.html');
  assert.not.ok(m.shouldSkip('http://copy.example/mirror/doc/x.html'), 'two pieces of evidence are not enough');
  m.observe('http://copy.example/mirror/doc/c/d.html', 'http://orig.example/doc/c/d.html');
  assert.ok(m.shouldSkip('http://copy.example/mirror/doc/never-fetched.html'));
  assert.ok(m.shouldSkip('http://COPY.example/mirror/doc/c/other.html#top'), 'any spelling of the URL');
  assert.not.ok(m.shouldSkip('http://copy.example/elsewhere.html'));
  assert.not.ok(m.shouldSkip('http://orig.example/doc/a.html'), 'the original is kept');
  assert.equal(m.rules().map((r) => [r.prefix, r.of, r.evidence, r.seen]), [['http://copy.example/mirror/', 'http://orig.example/', 3, 3]]);
});

test('reposts under another name are no evidence; a prefix with much unique content is not a mirror', () => {
  const m = new MirrorLearner();
  for (let i = 0; i < 5; i++) m.observe(`http://blog.example/2023/post-${i}.html`, `http://orig.example/page-${i}.html`);
  assert.equal(m.rules(), []);
  for (let i = 0; i < 10; i++) m.observe(`http://mixed.example/docs/unique-${i}.html`, null);
  for (let i = 0; i < 4; i++) m.observe(`http://mixed.example/docs/p${i}.html`, `http://orig.example/docs/p${i}.html`);
  assert.not.ok(m.shouldSkip('http://mixed.example/docs/p9.html'), '4 of 14 pages matched: below minShare');
  assert.throws(() => new MirrorLearner({ minShare: 2 }), (e: unknown) => e instanceof ResembleError && e.code === 'E_OPTION');
});

test('the filter: an AvoidList and the learner as sources, enqueue-time and fetch-time skips', async () => {
  const avoid = new AvoidList([
    { kind: 'host', value: 'www.sqlite.example.org', pages: 60, bytes: 0, keep: 'http://sqlite.example.org/' },
    { kind: 'prefix', value: 'http://docs.example.com/sqlite/session/', pages: 47, bytes: 0, keep: 'http://sqlite.example.org/session/' },
  ], none);
  const filter = new UrlFilter([avoid]);
  assert.ok(filter.shouldSkip('http://www.sqlite.example.org/anything.html'));
  assert.ok(filter.shouldSkip('http://docs.example.com/sqlite/session/intro.html'));
  assert.not.ok(filter.shouldSkip('http://docs.example.com/index.html'));
  assert.is(filter.transformRequestFunction({ url: 'http://docs.example.com/sqlite/session/x.html' }), false);
  const keep = { url: 'http://sqlite.example.org/x.html', userData: { depth: 1 } };
  assert.is(filter.transformRequestFunction(keep), keep);
  const queued = { url: 'http://www.sqlite.example.org/y.html', noRetry: false };
  assert.throws(() => filter.preNavigationHook({ request: queued }), (e: unknown) => e instanceof SkippedUrlError);
  assert.ok(queued.noRetry, 'not retried');
  filter.preNavigationHook({ request: { url: 'http://sqlite.example.org/y.html' } });
  assert.equal([filter.skippedAtEnqueue, filter.skippedBeforeFetch], [1, 1]);
  assert.throws(() => filter.add({} as never), (e: unknown) => e instanceof ResembleError && e.code === 'E_OPTION');
  // crawlDedup takes the avoid-list beside what it learns.
  const dedup = await crawlDedup({ avoid });
  assert.ok(dedup.filter.shouldSkip('http://www.sqlite.example.org/z.html'));
  assert.is(dedup.isDuplicate('http://a.example/1', '<p>one two three four five six seven eight nine</p>'), null);
  assert.is(dedup.isDuplicate('http://a.example/2', '<p>one two three four five six seven eight nine</p>'), 'http://a.example/1');
  assert.equal([dedup.guard.pages, dedup.guard.duplicates, dedup.guard.index.size], [2, 1, 1]);
  await assert.not.throws(async () => crawlDedup({ learnMirrors: false }));
  try { await crawlDedup({ w: 0 }); assert.unreachable(); } catch (e) { assert.ok(e instanceof ResembleError && e.code === 'E_OPTION'); }
});

test.run();
