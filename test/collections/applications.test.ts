// The applications of Section 5: the crawler avoid-list and search-result roll-up, checked against
// brute force over every crawled URL; and virtual links for partial mirrors whose targets were not crawled.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { avoidList } from '../../src/collections/avoid.js';
import { findCollections, type ReplicatedCollections } from '../../src/collections/find.js';
import type { NamedPageGraph } from '../../src/collections/page-graph.js';
import { plantedCrawl } from '../../src/collections/planted.js';
import { replicatedCollections } from '../../src/collections/replicated.js';
import { rollUp } from '../../src/collections/rollup.js';
import { trivialFromLabels } from '../../src/collections/trivial.js';
import type { Document } from '../../src/graph/document.js';
import { WebGraph } from '../../src/graph/web-graph.js';
import { init } from '../../src/index.js';
import { fixture, named } from './fixture.js';

await init();

const LINES2 = { kind: 'chunks', unit: 'lines', lines: 2, threshold: 4, markup: 'text' } as const;
const crawl = plantedCrawl({ collections: 6, copies: 4, pages: 20, laggingCopies: 1, noisePages: 300, seed: 9 });
const found = replicatedCollections(crawl.texts, crawl, { similarity: LINES2 });
const bytes = crawl.texts.map((t) => t.length);

/** Brute force: pages of the copies not kept (the kept copy has most in-links from other hosts, then the first). */
function expectedSkips(f: ReplicatedCollections, includeNoise = false): Uint8Array {
  const skip = new Uint8Array(crawl.size), keep = new Uint8Array(crawl.size);
  for (const c of f.clusters) {
    if (c.noise && !includeNoise) continue;
    const best = Array.from(c.externalInLinks).indexOf(Math.max(...c.externalInLinks));
    for (let x = 0; x < c.cardinality; x++) for (let col = 0; col < c.size; col++) (x === best ? keep : skip)[c.pages[x * c.size + col]] = 1;
  }
  for (let p = 0; p < crawl.size; p++) if (keep[p]) skip[p] = 0;
  return skip;
}

test('avoid-list: shouldSkip is true exactly for the pages of the copies not kept', () => {
  const list = avoidList(found, crawl, { pageBytes: bytes });
  const skip = expectedSkips(found);
  for (let p = 0; p < crawl.size; p++) assert.is(list.shouldSkip(crawl.urls[p]), skip[p] === 1, crawl.urls[p]);
  // The primaries get most links from other sites, so they are the copies kept.
  for (let p = 0; p < crawl.size; p++) if (crawl.collection[p] >= 0) assert.is(skip[p] === 1, crawl.copy[p] !== 0);
  // Each mirror host holds copies of two collections and nothing else: one host entry each.
  const hosts = list.entries.filter((e) => e.kind === 'host').map((e) => e.value).sort();
  assert.equal(hosts, [...new Set(crawl.hosts.filter((h) => h.startsWith('mirror')))].sort());
  const r = list.redundancy;
  let similar = 0, skipped = 0, saved = 0;
  for (let p = 0; p < crawl.size; p++) {
    if (found.trivial.size[found.trivial.rid[p]] > 1) similar++;
    if (skip[p]) { skipped++; saved += bytes[p]; }
  }
  assert.equal([r.pages, r.similarPages, r.skippedPages, r.savedBytes], [crawl.size, similar, skipped, saved]);
  assert.ok(r.similarPagesAfter < r.similarPages / 4, `${r.similarPagesAfter} of ${r.similarPages}`);
  assert.is(list.shouldSkip('not a url'), false);
  const mirrorPage = crawl.urls.findIndex((_u, p) => skip[p] === 1);
  // Another spelling of a skipped URL (host case, a fragment) is skipped too.
  assert.is(list.shouldSkip(crawl.urls[mirrorPage].replace(/^http:\/\/[^/]+/, (h) => h.toUpperCase()) + '#top'), true);
});

test('avoid-list: prefixes only where every crawled page under them is skipped, else single URLs', () => {
  // Host m holds a copy under /copy/ beside a page of its own; host n holds one spread over two folders
  // beside a page of its own, so no prefix is safe there.
  const f = fixture(
    {
      'p.a': 'a', 'p.b': 'b', 'p.c': 'c',
      'm.copy/a': 'a', 'm.copy/b': 'b', 'm.copy/c': 'c', 'm.own': 'own1',
      'n.x/a': 'a', 'n.y/b': 'b', 'n.y/c': 'c', 'n.z': 'own2',
      'w.l': 'link',
    },
    [
      ['p.a', 'p.b'], ['p.b', 'p.c'], ['m.copy/a', 'm.copy/b'], ['m.copy/b', 'm.copy/c'],
      ['n.x/a', 'n.y/b'], ['n.y/b', 'n.y/c'], ['w.l', 'p.a'], ['m.own', 'm.copy/a'],
    ],
  );
  const urls = f.names.map((n) => `http://${n.split('.')[0]}.example/${n.split('.').slice(1).join('.')}.html`);
  const graph: NamedPageGraph = { ...f.graph, urls };
  const got = findCollections(graph, trivialFromLabels(f.labels), { minSize: 1 });
  assert.equal(named(f, got), [[['p.a', 'p.b', 'p.c'], ['m.copy/a', 'm.copy/b', 'm.copy/c'], ['n.x/a', 'n.y/b', 'n.y/c']]]);
  const list = avoidList(got, graph);
  assert.equal(list.entries.map((e) => [e.kind, e.value, e.pages]), [
    ['prefix', 'http://m.example/copy/', 3],
    ['url', 'http://n.example/x/a.html', 1],
    ['url', 'http://n.example/y/b.html', 1],
    ['url', 'http://n.example/y/c.html', 1],
  ]);
  assert.ok(list.entries.every((e) => e.keep === 'http://p.example/a.html'));
  assert.is(list.shouldSkip('http://m.example/copy/new-page.html'), true);
  assert.is(list.shouldSkip('http://m.example/own.html'), false);
  assert.is(list.shouldSkip('http://n.example/y/d.html'), false);
});

test('roll-up: results of one collection fold into the first, replicas under it, by copy', () => {
  const page = (k: number, copy: number, t: number) => crawl.urls.findIndex((_u, p) => crawl.collection[p] === k && crawl.copy[p] === copy && crawl.template[p] === t);
  const noisePage = crawl.urls.findIndex((_u, p) => crawl.collection[p] < 0 && found.clusterOf[p] < 0);
  const results = [
    crawl.urls[page(0, 1, 3)], crawl.urls[page(0, 2, 5)], crawl.urls[noisePage], crawl.urls[page(0, 1, 7)],
    '::not a url', crawl.urls[page(1, 0, 2)], crawl.urls[page(0, 3, 3)], 'http://elsewhere.example/', crawl.urls[page(0, 2, 6)],
  ];
  const { entries, errors } = rollUp(results, found, crawl);
  assert.equal(errors.map((e) => e.rank), [4]);
  assert.equal(entries.map((e) => [e.url, e.rank]), [
    [results[0], 0], [results[2], 2], [results[5], 5], [results[7], 7],
  ]);
  const first = entries[0];
  assert.equal(first.collection, [results[3]]);
  // Every other copy of collection 0 is listed once, with the results found in it.
  const hostOfCopy = (copy: number) => crawl.hosts[crawl.hostOf[page(0, copy, 0)]];
  assert.equal(first.replicas.map((r) => r.host).sort(), [0, 2, 3].map(hostOfCopy).sort());
  const byHost = Object.fromEntries(first.replicas.map((r) => [r.host, r.results]));
  assert.equal(byHost[hostOfCopy(2)], [results[1], results[8]]);
  assert.equal(byHost[hostOfCopy(3)], [results[6]]);
  assert.equal(byHost[hostOfCopy(0)], []);
  assert.ok(first.replicas.every((r) => crawl.template[crawl.urls.indexOf(r.root)] === 0));
  assert.equal([entries[1].cluster, entries[3].cluster], [-1, -1]);
  assert.equal(entries[2].replicas.length, 3);
});

test('virtual links: a partial mirror whose missing pages were not crawled joins with the extended condition', () => {
  // Figure 10 again, but [ii]'s relative links to d..g lead to its own host, where nothing was crawled.
  const doc = (url: string, text: string, links: string[]): Document => ({ url, bytes: new TextEncoder().encode(text), links });
  const tree: Record<string, string[]> = { a: ['b.html', 'c.html'], b: ['d.html', 'e.html'], c: ['f.html', 'g.html'], d: [], e: [], f: [], g: [] };
  const docs: Document[] = [];
  for (const [name, links] of Object.entries(tree)) docs.push(doc(`http://i.example/doc/${name}.html`, name, links.map((l) => `http://i.example/doc/${l}`)));
  for (const name of ['a', 'b', 'c']) docs.push(doc(`http://ii.example/mirror/doc/${name}.html`, name, tree[name].map((l) => `http://ii.example/mirror/doc/${l}`)));
  const graph = WebGraph.fromDocuments(docs);
  const labels = docs.map((d) => d.url.slice(-6, -5).charCodeAt(0));
  const exact = findCollections(graph, trivialFromLabels(labels), { minSize: 1 });
  assert.equal(exact.clusters.map((c) => [c.cardinality, c.size]), [[2, 3]]);
  const ext = findCollections(graph, trivialFromLabels(labels), { minSize: 1, extended: true });
  assert.is(ext.stats.virtualLinks, 4);
  assert.equal(ext.clusters.map((c) => [c.cardinality, c.size, c.extended, c.similar]), [[2, 7, true, true]]);
  const second = Array.from(ext.clusters[0].pages.subarray(7), (p) => graph.urls[p]).sort();
  assert.equal(second, [
    'http://i.example/doc/d.html', 'http://i.example/doc/e.html', 'http://i.example/doc/f.html', 'http://i.example/doc/g.html',
    'http://ii.example/mirror/doc/a.html', 'http://ii.example/mirror/doc/b.html', 'http://ii.example/mirror/doc/c.html',
  ]);
});

test.run();
