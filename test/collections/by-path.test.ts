// Pages no crawled page links to or from (a redirect stub whose target a sampled copy lacks) join
// their copies' cluster by path: at one path below every collection's prefix, in one cluster,
// never across clusters, never in paper growth; the invariants still hold.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { collectionsOfGraph } from '../../src/collections/find.js';
import { clusterProblems } from '../../src/collections/invariants.js';
import { HOLE } from '../../src/collections/matrix.js';
import { reverseLinks } from '../../src/collections/page-graph.js';
import { clusterRecord } from '../../src/collections/report.js';
import { trivialFromLabels } from '../../src/collections/trivial.js';
import type { Document } from '../../src/graph/document.js';
import { WebGraph } from '../../src/graph/web-graph.js';
import { init } from '../../src/index.js';

await init();

const encode = (s: string) => new TextEncoder().encode(s);
const RING = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5'];

/** A manual of six pages in a ring under `base`, in `manual`'s words. */
function ring(base: string, manual: string): Document[] {
  return RING.map((name, i) => ({ url: `${base}${name}.html`, bytes: encode(`${manual} ${name}`), links: [new URL(`${RING[(i + 1) % RING.length]}.html`, base).href] }));
}

/** A stub at `path` below `base` pointing at a page the crawl lacks: nothing crawled links to or from it. */
const stub = (base: string, path: string, text: string): Document => ({ url: new URL(path, base).href, bytes: encode(text), links: [new URL(`gone-${text.replace(/\W/g, '')}.html`, base).href] });

/** Trivial clusters by text. */
function labelsOf(all: Document[]): number[] {
  const text = all.map((d) => new TextDecoder().decode(d.bytes));
  const distinct = [...new Set(text)];
  return text.map((t) => distinct.indexOf(t));
}

test('stubs at one path below both copies\' prefixes join the cluster by path; elsewhere they stay out', () => {
  const O = 'http://origin.example/doc/', M = 'http://mirror.example/pub/manual/';
  const all: Document[] = [
    ...ring(O, 'm'), ...ring(M, 'm'),
    stub(O, 'xref/s1.html', 'stub one'), stub(M, 'xref/s1.html', 'stub one'),
    stub(O, 'xref/s2.html', 'stub two'), stub(M, 'xref/s2.html', 'stub two'),
    // the same text at another path below the mirror's prefix: not the same page of the copy
    stub(O, 's3.html', 'stub three'), stub(M, 'other/s3.html', 'stub three'),
    // a third copy of stub one on a blog, under no collection
    stub('http://blog.example/notes/', 'xref/s1.html', 'stub one'),
  ];
  const graph = WebGraph.fromDocuments(all);
  const got = collectionsOfGraph(graph, trivialFromLabels(labelsOf(all)), { minSize: 1 });
  assert.is(got.clusters.length, 1);
  const c = got.clusters[0];
  assert.equal([c.cardinality, c.size, c.complete, Array.from(c.held)], [2, 8, true, [8, 8]]);
  assert.ok(c.byPath, 'columns joined by path are marked');
  assert.equal(Array.from(c.byPath!), [0, 0, 0, 0, 0, 0, 1, 1]);
  const joined = new Set<string>();
  for (let col = 6; col < 8; col++) for (let x = 0; x < 2; x++) joined.add(all[c.pages[x * c.size + col]].url.replace(/^http:\/\/[^/]+\/(doc|pub\/manual)\//, ''));
  assert.equal([...joined].sort(), ['xref/s1.html', 'xref/s2.html']);
  assert.is(got.stats.joinedByPath, 4);
  const url = (u: string) => all.findIndex((d) => d.url === u);
  for (const u of [`${O}s3.html`, `${M}other/s3.html`, 'http://blog.example/notes/xref/s1.html']) assert.is(got.clusterOf[url(u)], -1, `${u} stays out`);
  assert.equal(clusterProblems(c, graph, reverseLinks(graph), got.trivial.rid), []);
  // the written record marks the columns, and lists the stubs' URLs in them
  const record = clusterRecord(c, graph);
  assert.equal(record.byPath, [false, false, false, false, false, false, true, true]);
  assert.equal(record.collections.map((k) => k.pages.slice(6).map((u) => u!.replace(/^http:\/\/[^/]+\/(doc|pub\/manual)\//, ''))), [['xref/s1.html', 'xref/s2.html'], ['xref/s1.html', 'xref/s2.html']]);
  // without the rule (paper growth joins nothing by path), the stubs are in no cluster
  const paper = collectionsOfGraph(graph, trivialFromLabels(labelsOf(all)), { minSize: 1, growth: 'paper' });
  for (const k of paper.clusters) { assert.not.ok(k.byPath); assert.not.ok('byPath' in clusterRecord(k, graph)); }
  assert.is(paper.stats.joinedByPath, 0);
});

test('a stub whose copies lie under two different clusters joins neither; noise clusters take none', () => {
  // Two manuals X and Y, each on both hosts; a stub under X's prefix on one host and Y's on the other.
  const all: Document[] = [
    ...ring('http://a.example/x/', 'x'), ...ring('http://b.example/x/', 'x'),
    ...ring('http://a.example/y/', 'y'), ...ring('http://b.example/y/', 'y'),
    stub('http://a.example/x/', 'stub.html', 'lost'), stub('http://b.example/y/', 'stub.html', 'lost'),
  ];
  const graph = WebGraph.fromDocuments(all);
  const got = collectionsOfGraph(graph, trivialFromLabels(labelsOf(all)), { minSize: 1 });
  assert.is(got.clusters.length, 2);
  for (const k of got.clusters) assert.is(k.size, 6);
  assert.is(got.stats.joinedByPath, 0);
  // with minSize above the manuals' size both clusters are noise: nothing joins them
  const both = [...all.slice(0, 24), stub('http://a.example/x/', 'stub.html', 'lost'), stub('http://b.example/x/', 'stub.html', 'lost')];
  const noise = collectionsOfGraph(WebGraph.fromDocuments(both), trivialFromLabels(labelsOf(both)), { minSize: 10 });
  assert.ok(noise.clusters.every((k) => k.noise && !k.byPath));
  const fine = collectionsOfGraph(WebGraph.fromDocuments(both), trivialFromLabels(labelsOf(both)), { minSize: 1 });
  assert.equal(fine.clusters.map((k) => [k.size, k.byPath ? Array.from(k.byPath).filter(Boolean).length : 0]).sort(), [[6, 0], [7, 1]]);
  for (const k of fine.clusters) for (const p of k.pages) assert.ok(p !== HOLE);
});

test.run();
