// Hostile and degenerate crawls through the command line and the library: no links, a host with
// one page, links to hosts not in the crawl, pages linking to themselves, a cycle of mirrors
// linking into each other, hosts that are IP literals. Clear results (empty where there is nothing
// to find), exit code 0, every cluster meeting the invariants; never a crash or a stack trace.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.js';
import { AvoidList, avoidList } from '../../src/collections/avoid.js';
import { clusterProblems } from '../../src/collections/invariants.js';
import { HOLE } from '../../src/collections/matrix.js';
import { reverseLinks } from '../../src/collections/page-graph.js';
import { replicatedCollections } from '../../src/collections/replicated.js';
import { replicaSummary } from '../../src/collections/summary.js';
import type { Document } from '../../src/graph/document.js';
import { WebGraph } from '../../src/graph/web-graph.js';
import { init } from '../../src/index.js';

await init();
const dir = mkdtempSync(join(tmpdir(), 'resemble-collections-bad-'));

/** A page's text: 14 lines of its own, so that the window test tells pages apart and copies together. */
const text = (name: string) => Array.from({ length: 14 }, (_, i) => `${name} line ${i} ${name.length * 7919 + i * 104729}`).join('\n');

interface Page { url: string; name: string; links: string[] }

/** A small manual (a tree of `n` pages, each linking to its parent and the first page) under a base URL. */
function manual(base: string, n: number, prefix = 'p', links = true): Page[] {
  return Array.from({ length: n }, (_, j) => ({
    url: `${base}${prefix}${j}.html`, name: `${prefix}${j}`,
    links: links && j > 0 ? [`${base}${prefix}${Math.floor((j - 1) / 2)}.html`, `${base}${prefix}0.html`] : [],
  }));
}

function write(name: string, pages: Page[]): string {
  const file = join(dir, name);
  const html = (p: Page) => `<html><body>${text(p.name).split('\n').map((l) => `<p>${l}</p>`).join('')}${p.links.map((l) => `<a href="${l}">x</a>`).join('')}</body></html>`;
  writeFileSync(file, pages.map((p) => JSON.stringify({ url: p.url, html: html(p) })).join('\n') + '\n');
  return file;
}

async function run(argv: string[]) {
  let out = '', err = '';
  const code = await main(['collections', ...argv], { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c), isTTY: false } });
  return { code, out, err, records: out.split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
}

/** The library on the same pages: the clusters, checked against the invariants. */
function find(pages: Page[]) {
  const docs: Document[] = pages.map((p) => ({ url: p.url, bytes: new TextEncoder().encode(text(p.name)), links: p.links }));
  const graph = WebGraph.fromDocuments(docs);
  const found = replicatedCollections(docs.map((d) => d.bytes), graph, { minSize: 2 });
  const inLinks = reverseLinks(graph);
  for (const c of found.clusters) assert.equal(clusterProblems(c, graph, inLinks, found.trivial.rid), []);
  assert.is(found.stats.dropped, 0);
  return { graph, found };
}

test('a crawl with no links: no collection, exit 0, an empty avoid-list', async () => {
  const pages = [...manual('http://a.example/doc/', 6, 'p', false), ...manual('http://b.example/doc/', 6, 'p', false)];
  const file = write('nolinks.jsonl', pages);
  const r = await run([file, '--min-size', '2']);
  assert.is(r.code, 0, r.err);
  assert.equal(r.records, []);
  assert.match(r.err, /collections: 0 sets of linked pages are copied on several hosts or folders/);
  const avoid = await run([file, '--avoid']);
  assert.is(avoid.code, 0);
  assert.equal(avoid.records, []);
  assert.equal(find(pages).found.clusters, []);
});

test('a host with one page, links to hosts not in the crawl, pages linking to themselves', async () => {
  const pages = [
    ...manual('http://a.example/doc/', 6), ...manual('http://b.example/mirror/doc/', 6),
    // One page alone on its host, a copy of p1, linking to itself and to a host not crawled.
    { url: 'http://lonely.example/p1.html', name: 'p1', links: ['http://lonely.example/p1.html', 'http://nowhere.example/x.html'] },
  ];
  for (const p of pages) p.links.push(p.url, 'http://not-crawled.example/a/b.html');
  const file = write('odd.jsonl', pages);
  const r = await run([file, '--min-size', '2']);
  assert.is(r.code, 0, r.err);
  assert.equal(r.records.map((c) => [c.cardinality, c.size]), [[2, 6]]);
  assert.ok(r.records[0].collections.every((c: { host: string }) => c.host !== 'lonely.example'), 'a single page is not a collection');
  const { found, graph } = find(pages);
  assert.is(found.clusterOf[graph.docId('http://lonely.example/p1.html')!], -1);
});

test('a cycle of mirrors linking into each other: copies stay on their hosts, one cluster of three', async () => {
  const hosts = ['m1.example', 'm2.example', 'm3.example'];
  const pages = hosts.flatMap((h) => manual(`http://${h}/docs/`, 8));
  // Every page of each mirror also links to the same page on the next mirror, round the cycle.
  for (const p of pages) {
    const h = new URL(p.url).host;
    p.links.push(p.url.replace(h, hosts[(hosts.indexOf(h) + 1) % 3]));
  }
  const file = write('cycle.jsonl', pages);
  const r = await run([file, '--min-size', '2']);
  assert.is(r.code, 0, r.err);
  assert.equal(r.records.map((c) => [c.cardinality, c.size, c.complete]), [[3, 8, true]]);
  assert.equal(r.records[0].collections.map((c: { host: string }) => c.host).sort(), hosts);
  const replicas = await run([file, '--min-size', '2', '--replicas']);
  assert.equal(replicas.records.map((x) => x.relation), ['exact', 'exact', 'exact']);
  const { found } = find(pages);
  assert.is(found.clusters.length, 1);
});

test('hosts that are IP literals (IPv4, IPv6, with ports): collections, prefixes and rules as for names', async () => {
  const bases = ['http://192.0.2.7/doc/', 'http://[2001:db8::5]/mirror/doc/', 'http://198.51.100.9:8080/doc/'];
  const pages = bases.flatMap((b) => manual(b, 7));
  const file = write('ip.jsonl', pages);
  const r = await run([file, '--min-size', '2']);
  assert.is(r.code, 0, r.err);
  assert.equal(r.records.map((c) => [c.cardinality, c.size]), [[3, 7]]);
  assert.equal(r.records[0].collections.map((c: { prefix: string }) => c.prefix).sort(), ['http://192.0.2.7/doc/', 'http://198.51.100.9:8080/doc/', 'http://[2001:db8::5]/mirror/doc/']);
  const { found, graph } = find(pages);
  const list = avoidList(found, graph, { minRulePages: 2, keep: 'host:192.0.2.7' });
  assert.equal(list.entries.map((e) => [e.kind, e.value]).sort(), [['host', '198.51.100.9:8080'], ['host', '[2001:db8::5]']]);
  assert.ok(list.shouldSkip('http://[2001:DB8::5]/anything/new.html'));
  assert.ok(list.shouldSkip('http://198.51.100.9:8080/doc/new.html'));
  assert.not.ok(list.shouldSkip('http://198.51.100.9/doc/new.html'), 'another port is another host');
  assert.not.ok(list.shouldSkip('http://192.0.2.7/doc/p1.html'));
  assert.ok(AvoidList.load(list.save()).shouldSkip('http://[2001:db8::5]/x'));
  assert.equal(replicaSummary(found, graph, found.similarity).map((x) => x.relation), ['exact', 'exact', 'exact']);
  for (const c of found.clusters) assert.ok(Array.from(c.pages).every((p) => p !== HOLE));
});

test('an empty input exits 1; a crawl of one page finds nothing', async () => {
  const empty = join(dir, 'empty.jsonl');
  writeFileSync(empty, '');
  const r = await run([empty]);
  assert.is(r.code, 1);
  assert.not.match(r.err, /at .*\.ts:\d+/, 'no stack trace');
  const one = await run([write('one.jsonl', manual('http://a.example/', 1))]);
  assert.is(one.code, 0, one.err);
  assert.equal(one.records, []);
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
