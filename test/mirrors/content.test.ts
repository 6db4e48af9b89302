import { test } from 'uvu';
import { RULE_DEFAULTS } from '../../src/mirrors/verdict.js';
import * as assert from 'uvu/assert';
import type { Document } from '../../src/graph/document.js';
import { init, sketch } from '../../src/index.js';
import { crawlContentSource, hostContentFromDocuments, sketchSimilarity } from '../../src/mirrors/content.js';
import { mirrorInputFromDocuments } from '../../src/mirrors/crawl-input.js';
import { evaluateRankings, precisionAtRecall, truthJudge } from '../../src/mirrors/evaluate.js';
import { linkTableOf, rankAll } from '../../src/mirrors/find.js';
import { HostSet } from '../../src/mirrors/host-set.js';
import { verifyRanking } from '../../src/mirrors/mirroring-test.js';
import { makeWorld } from './world.js';

const enc = new TextEncoder();
const doc = (url: string, text: string, extra: Partial<Document> = {}): Document => ({ url, bytes: enc.encode(text), ...extra });
const words = (n: number, salt: string) => Array.from({ length: n }, (_, i) => `${salt}${(i * 7919) % 1000}`).join(' ');

test('crawl content source: pages by normalized URL, first copy wins, absent pages unknown unless told', async () => {
  await init();
  const docs = [doc('http://A.org/x?q=1#frag', 'first'), doc('http://a.org/x?q=1', 'second'), doc('http://a.org/empty', '')];
  const src = crawlContentSource(docs);
  assert.equal(new TextDecoder().decode(src('http://a.org/x?q=1') as Uint8Array), 'first');
  assert.is(src('http://a.org/missing'), undefined);
  assert.is(src('http://a.org/empty'), undefined, 'a URL-list entry has no content');
  assert.is(crawlContentSource(docs, { absent: 'failed' })('http://a.org/missing'), null);
  assert.throws(() => crawlContentSource(docs, { absent: 'gone' as never }), /expected one of unknown\|failed for absent/);
});

test('sketch similarity: the core\'s resemblance estimate, each content sketched once', () => {
  const sim = sketchSimilarity();
  const a = enc.encode(words(300, 'w'));
  const b = enc.encode(words(300, 'w') + ' ' + words(20, 'extra'));
  const c = enc.encode(words(300, 'v'));
  assert.is(sim(a, a), 1);
  const r = sim(a, b);
  assert.ok(r > 0.8 && r < 1, `${r}`);
  assert.ok(sim(a, c) < 0.05);
  assert.is(sim('same text here and there and everywhere', 'same text here and there and everywhere'), 1);
});

test('host content: sketches keyed by sorted path, a min-hash key per page', () => {
  const docs = [doc('http://a.org/z', words(50, 'z')), doc('http://a.org/b', words(50, 'b')), doc('http://b.org/b', words(50, 'b')), doc('http://c.org/x', 'short')];
  const hosts = HostSet.fromUrls(docs.map((d) => d.url), { minUrls: 1 });
  const content = hostContentFromDocuments(hosts, docs);
  const a = content.pages('a.org')!;
  assert.equal(a.paths, ['b', 'z']);
  assert.equal([...a.sketches[0].values], [...sketch(docs[1].bytes).values]);
  assert.is(a.keys![0], a.sketches[0].values[0]);
  assert.is(content.pages('b.org')!.keys![0], a.keys![0]);
  assert.is(content.resemblance(a.sketches[0], content.pages('b.org')!.sketches[0]), 1);
  const c = content.pages('c.org')!;
  assert.is(c.keys![0], c.sketches[0].values[0], 'a page shorter than a shingle still has a value');
});

test('crawl input: URLs, IPs (malformed reported with the document\'s source), page links', () => {
  const docs = [
    doc('http://a.org/', 'x', { ip: '10.0.0.1', links: ['http://b.org/', 'mailto:x@y.org'], source: 'c.warc#0' }),
    doc('http://a.org/p', 'y', { ip: '10.0.0.2', source: 'c.warc#100' }),
    doc('http://b.org/', 'z', { ip: '10.0.0', source: 'c.warc#200' }),
  ];
  const input = mirrorInputFromDocuments(docs);
  assert.equal(input.urls, ['http://a.org/', 'http://a.org/p', 'http://b.org/']);
  assert.equal([...input.ips], [['a.org', ['10.0.0.1', '10.0.0.2']]]);
  assert.equal(input.links, [['http://a.org/', 'http://b.org/'], ['http://a.org/', 'mailto:x@y.org']]);
  assert.equal(input.errors.map((e) => e.location), ['c.warc#200']);
  assert.equal(mirrorInputFromDocuments(docs, { linkUrls: true }).urls.length, 4);
});

test('end to end with the core\'s sketches: hybrid beats combined, and the mirroring test confirms the mirrors', async () => {
  const w = makeWorld({ seed: 9 });
  const out = new Map<string, string[]>();
  for (const [s, d] of w.links) out.set(s, [...(out.get(s) ?? []), d]);
  const docs = w.urls.map((u) => doc(u, w.content.get(u)!, { ip: w.ips.get(new URL(u).host)![0], links: out.get(u) ?? [] }));
  const input = mirrorInputFromDocuments(docs);
  const hosts = HostSet.fromUrls(input.urls, { ips: input.ips });
  const r = rankAll(hosts, linkTableOf(hosts, input), hostContentFromDocuments(hosts, docs), {}, ['combined', 'hybrid']);
  const { judge } = truthJudge(hosts, w.truth);
  const [combined, hybrid] = evaluateRankings([r.combined!, r.hybrid!], judge, { total: w.truth.length }).curves;
  for (let k = 1; k <= w.truth.length; k++) {
    const pc = precisionAtRecall(combined, k / w.truth.length);
    if (pc === undefined) break;
    assert.ok(precisionAtRecall(hybrid, k / w.truth.length)! >= pc, `recall ${k}`);
  }
  assert.is(precisionAtRecall(hybrid, 1), 1);
  // The mirroring test over the crawl's own pages agrees with the truth on hybrid's top pairs.
  const top = w.truth.length + 4;
  const { results } = await verifyRanking(r.hybrid!, crawlContentSource(docs), { top });
  for (let i = 0; i < top; i++) {
    const truth = judge(r.hybrid!.a[i], r.hybrid!.b[i]) === 1;
    // a planted mirror of fewer than minPages aligned pages is a handful of copied pages, not a mirror
    const handful = results[i].verdict === 'copied pages' && results[i].copied!.pages < RULE_DEFAULTS.minPages;
    assert.is(results[i].verdict === 'mirror' || (truth && handful), truth, `rank ${i + 1}: ${results[i].verdict} (${results[i].reason})`);
  }
});

test.run();
