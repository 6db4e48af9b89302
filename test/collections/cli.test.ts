// `resemble collections` end to end on a generated JSONL crawl: clusters, avoid-list, roll-up, plot, errors.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.js';
import { AvoidList } from '../../src/collections/avoid.js';
import { UrlRules } from '../../src/collections/url-rules/rules.js';
import { plantedCrawl } from '../../src/collections/planted.js';

const dir = mkdtempSync(join(tmpdir(), 'resemble-collections-'));
const crawl = plantedCrawl({ collections: 3, copies: 3, pages: 12, partialMirrors: 1, laggingCopies: 1, noisePages: 60, seed: 21 });
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const lines: string[] = [];
for (let p = 0; p < crawl.size; p++) {
  const links = Array.from(crawl.linkTargets.subarray(crawl.linkOffsets[p], crawl.linkOffsets[p + 1]), (q) => `<a href="${crawl.urls[q]}"></a>`);
  const body = crawl.texts[p].split('\n').map((l) => `<p>${escape(l)}</p>`).join('');
  lines.push(JSON.stringify({ url: crawl.urls[p], html: `<html><body>${body}<div>${links.join('')}</div></body></html>` }));
}
// A record that is not JSON: reported with its line and skipped.
lines.splice(5, 0, '{broken');
const input = join(dir, 'crawl.jsonl');
writeFileSync(input, lines.join('\n') + '\n');

async function run(argv: string[]) {
  let out = '', err = '';
  const code = await main(['collections', ...argv], { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c), isTTY: false } });
  return { code, out, err, records: out.split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
}

const SIM = ['--similarity', 'chunks:2:4', '--min-size', '5'];
/** Lagging copies are the last full copies of each collection (copy 2 here, on hosts mirror2-*). */
const crawlHostIsLagging = (host: string) => crawl.urls.some((u, p) => new URL(u).host === host && crawl.copy[p] === 2);

test('one JSON line per cluster, by cardinality then size, with hosts, prefixes, roots and pages', async () => {
  const r = await run([input, ...SIM]);
  assert.is(r.code, 0, r.err);
  assert.match(r.err, /line 6/);
  // Each collection with its partial mirror: 4 copies × 12 pages, the partial one holding 6.
  assert.equal(r.records.map((c) => [c.cardinality, c.size, c.complete]), [[4, 12, false], [4, 12, false], [4, 12, false]]);
  for (const c of r.records) {
    assert.equal(Object.keys(c), ['cardinality', 'size', 'complete', 'noise', 'similar', 'collections']);
    assert.is(c.collections.length, c.cardinality);
    assert.equal(c.collections.map((col: { held: number }) => col.held).sort(), [12, 12, 12, 6]);
    for (const col of c.collections) {
      assert.equal(Object.keys(col), ['host', 'prefix', 'root', 'held', 'extent', 'pages', 'externalInLinks']);
      assert.is(col.pages.length, c.size);
      assert.is(col.pages.filter((u: string | null) => u !== null).length, col.held);
      assert.is(col.root, col.pages.find((u: string | null) => u !== null));
      assert.is(new URL(col.root).host, col.host);
      assert.ok(col.pages.every((u: string | null) => u === null || u.startsWith(col.prefix)));
    }
    assert.ok(c.collections.every((col: { root: string }) => col.root.endsWith('index.html')));
  }
});

test('--growth paper: the exact condition, the partial mirror only at the half it holds', async () => {
  const r = await run([input, ...SIM, '--growth', 'paper']);
  assert.is(r.code, 0, r.err);
  // The mirrored halves as complete clusters of four copies; nothing reaches the full 12 pages.
  assert.is(r.records.filter((c) => c.cardinality === 4 && c.size === 6 && c.complete).length, 3);
  assert.ok(r.records.every((c) => c.size <= 6));
});

test('--replicas: one record per pair of collections with pages in common, coverage, resemblance and relation', async () => {
  const r = await run([input, ...SIM, '--replicas']);
  assert.is(r.code, 0, r.err);
  // Three clusters of four copies: six pairs each.
  assert.is(r.records.length, 18);
  for (const x of r.records) {
    assert.equal(Object.keys(x), ['cluster', 'a', 'b', 'common', 'coverageA', 'coverageB', 'identical', 'resemblance', 'relation']);
    assert.equal(Object.keys(x.a), ['host', 'prefix', 'root', 'held', 'extent']);
    assert.is(x.coverageA, Math.round((x.common / x.a.extent) * 10000) / 10000);
    const partial = x.a.held === 6 || x.b.held === 6;
    assert.is(x.common, partial ? 6 : 12);
    // The lagging copy's pages differ a little; the others are identical.
    const lagging = [x.a.host, x.b.host].some((h: string) => crawlHostIsLagging(h));
    assert.is(x.relation, lagging ? (x.resemblance >= 0.9 ? 'near' : 'lagging') : partial ? 'partial' : 'exact', JSON.stringify(x));
  }
});

test('--avoid --rules FILE: URL rules learnt from the duplicate clusters, written versioned and listed on stderr', async () => {
  const file = join(dir, 'rules.json');
  const r = await run([input, ...SIM, '--avoid', '--rules', file]);
  assert.is(r.code, 0, r.err);
  const plain = await run([input, ...SIM, '--avoid']);
  assert.equal(r.records, plain.records, 'the avoid-list is the same');
  const rules = UrlRules.load(readFileSync(file, 'utf8'));
  assert.ok(rules.rules.length > 0);
  assert.ok(rules.rules.every((x) => x.kind === 'prefix' || x.kind === 'keep'), 'the planted crawl has mirrors, no URL variants');
  assert.match(r.err, new RegExp(`url rules: ${rules.rules.length} learnt`));
  for (const x of rules.rules) assert.ok(r.err.includes(`${x.kind} ${x.from} is ${x.to} (support ${x.support}, precision ${x.precision} of ${x.tested})`) || x.kind === 'keep', JSON.stringify(x));
  // each mirror prefix spells its pages as the kept copy's
  const moved = crawl.urls.filter((u) => rules.canonical(u) !== u);
  assert.ok(moved.length >= 3 * 12, `${moved.length} pages of mirrors spelled as their copies`);
  for (const u of moved) assert.ok(crawl.urls.includes(rules.canonical(u)!), `${u} onto a crawled page`);
  assert.not.ok(crawl.urls.some((u) => u.startsWith('http://mirror2-') && rules.canonical(u) !== u), 'the lagging copies keep their URLs');
  assert.is((await run([input, '--rules', file])).code, 2, '--rules without --avoid');
  assert.is((await run([input, '--avoid', '--rule-support', '2'])).code, 2, '--rule-support without --rules');
  assert.is((await run([input, '--avoid', '--rules', file, '--rule-precision', '2'])).code, 2);
});

test('--avoid: entries that skip the mirrors, redundancy on stderr; --save writes the versioned list', async () => {
  const saved = join(dir, 'avoid.json');
  const r = await run([input, ...SIM, '--avoid', '--save', saved]);
  assert.is(r.code, 0, r.err);
  assert.ok(r.records.length > 0);
  for (const e of r.records) {
    for (const k of ['kind', 'value', 'pages', 'bytes', 'keep', 'keepPrefix', 'redundant', 'lost']) assert.ok(k in e, k);
    assert.ok(e.bytes > 0);
    assert.match(e.keep, /^http:\/\/www\.coll\d\.example\/docs\/index\.html$/);
  }
  // Three collections, each skipping two full mirrors (12 pages) and the partial one (6).
  assert.match(r.err, /avoid-list: \d+ entries tell a crawler to skip 90 of \d+ pages/);
  const list = AvoidList.load(readFileSync(saved, 'utf8'));
  assert.equal(list.entries.map((e) => e.value), r.records.map((e) => e.value));
  // --keep host:NAME keeps the copies on that host instead.
  const mirror = crawl.hosts.find((h) => h.startsWith('mirror1'))!;
  const other = await run([input, ...SIM, '--avoid', '--keep', `host:${mirror}`]);
  assert.is(other.code, 0, other.err);
  assert.ok(other.records.some((e) => e.keep.includes(mirror)));
  assert.ok(other.records.every((e) => !e.value.includes(mirror)));
});

test('--results / --rollup: result URLs rolled up by collection', async () => {
  const results = join(dir, 'results.txt');
  const pick = (c: number, copy: number, t: number) => crawl.urls.find((_u, p) => crawl.collection[p] === c && crawl.copy[p] === copy && crawl.template[p] === t)!;
  writeFileSync(results, [pick(0, 0, 1), pick(0, 1, 1), pick(1, 0, 2), pick(0, 0, 3), 'http://[bad', ''].join('\n'));
  const r = await run([input, ...SIM, '--results', results]);
  assert.is(r.code, 0, r.err);
  assert.equal(r.records.map((e) => e.url), [pick(0, 0, 1), pick(1, 0, 2)]);
  assert.equal(r.records[0].collection, [pick(0, 0, 3)]);
  assert.equal(r.records[0].replicas.filter((x: { results: string[] }) => x.results.length).map((x: { results: string[] }) => x.results), [[pick(0, 1, 1)]]);
  assert.match(r.err, /result 5: unparseable/);
});

test('--break-points: pages that split a collection, with the clusters on either side', async () => {
  const r = await run([input, '--similarity', 'chunks:4:15', '--growth', 'paper', '--break-points']);
  assert.is(r.code, 0, r.err);
  assert.ok(r.records.length > 0);
  for (const b of r.records) {
    assert.equal(Object.keys(b), ['url', 'host', 'from', 'to']);
    assert.is(b.from.cardinality, b.to.cardinality);
    assert.is(new URL(b.url).host, b.host);
  }
});

test('--plots writes Figure 12 as SVG', async () => {
  const plots = join(dir, 'plots');
  const plot = join(plots, 'figure12.svg');
  const r = await run([input, ...SIM, '--plots', plots, '--min-size', '1', '--growth', 'paper']);
  assert.is(r.code, 0, r.err);
  const svg = readFileSync(plot, 'utf8');
  assert.match(svg, /^<svg/);
  assert.match(svg, /cluster cardinality/);
  // --min-size 1 keeps the size-1 clusters of duplicated noise pages too.
  assert.ok(r.records.some((c) => c.size === 1));
});

test('bad arguments exit 2 with a coded message; no input exits 2', async () => {
  const bad = await run([input, '--similarity', 'chunks:four']);
  assert.is(bad.code, 2);
  assert.match(bad.err, /expected windows:LINES:R, chunks:LINES:T/);
  // Flags of earlier versions say what replaced them.
  const extended = await run([input, '--extended']);
  assert.is(extended.code, 2);
  assert.match(extended.err, /--extended is gone: partial and older copies always join/);
  assert.match((await run([input, '--single-site'])).err, /always on one host/);
  assert.is((await run([input, '--growth', 'exact'])).code, 2);
  assert.is((await run([input, '--keep', 'first'])).code, 2, '--keep without --avoid');
  assert.is((await run([input, '--avoid', '--keep', 'oldest'])).code, 2);
  assert.is((await run([input, '--avoid', '--replicas'])).code, 2);
  assert.is((await run([input, '--min-share', '2'])).code, 2);
  assert.is((await run([input, '--min-size', '0'])).code, 2);
  assert.is((await run([input, '--avoid', '--rollup'])).code, 2);
  assert.is((await run([input, '--avoid', '--break-points'])).code, 2);
  assert.is((await run([])).code, 2);
  assert.is((await run([join(dir, 'missing.jsonl')])).code, 1);
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
