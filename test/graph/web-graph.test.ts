import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Document, ReadError } from '../../src/graph/document.js';
import { normalizeUrl } from '../../src/graph/url.js';
import { WebGraph } from '../../src/graph/web-graph.js';
import { rng } from '../helpers/random.js';


function randomCrawl(seed: number, n: number): Document[] {
  const r = rng(seed);
  const hosts = ['a.org', 'B.org', 'c.org:8080'];
  const urls = Array.from({ length: n }, (_, i) => `http://${hosts[Math.floor(r() * hosts.length)]}/p${i % 7 === 0 ? '' : i}#f${i}`);
  return urls.map((url, i) => {
    const links: string[] = [];
    const k = Math.floor(r() * 8);
    for (let j = 0; j < k; j++) {
      const t = r();
      if (t < 0.6) links.push(urls[Math.floor(r() * n)].replace('#', '#x'));
      else if (t < 0.9) links.push(`http://outside.net/${Math.floor(r() * 5)}`);
      else links.push(url); // a self-link
    }
    return { url, bytes: new Uint8Array(0), links };
  });
}

/** The slow, obvious reference: adjacency sets by string comparison. */
function naive(docs: Document[]) {
  const urls = docs.map((d) => normalizeUrl(d.url)!);
  const first = (u: string) => urls.indexOf(u);
  const out = docs.map((d, i) => {
    const internal = new Set<number>();
    const external: string[] = [];
    for (const l of d.links ?? []) {
      const u = normalizeUrl(l)!;
      const j = first(u);
      if (j < 0) { if (!external.includes(u)) external.push(u); }
      else if (urls[j] !== urls[i]) internal.add(j);
    }
    return { internal: [...internal].sort((a, b) => a - b), external };
  });
  const inn = docs.map((_, j) => out.flatMap((o, i) => (o.internal.includes(j) ? [i] : [])));
  return { urls, out, inn };
}

test('WebGraph CSR equals a naive adjacency list on random crawls', () => {
  for (let seed = 1; seed <= 20; seed++) {
    const docs = randomCrawl(seed, 5 + seed * 3);
    const g = WebGraph.fromDocuments(docs);
    const ref = naive(docs);
    assert.equal(g.urls, ref.urls);
    assert.is(g.linkOffsets.length, docs.length + 1);
    const inn = g.inLinks();
    for (let i = 0; i < docs.length; i++) {
      assert.equal(Array.from(g.outLinks(i)), ref.out[i].internal, `out ${seed}/${i}`);
      assert.equal(g.externalLinks(i), ref.out[i].external, `ext ${seed}/${i}`);
      assert.is(g.externalCount[i], ref.out[i].external.length);
      assert.equal(Array.from(inn.targets.subarray(inn.offsets[i], inn.offsets[i + 1])), ref.inn[i], `in ${seed}/${i}`);
      assert.is(g.hosts[g.hostOf[i]], new URL(ref.urls[i]).host);
      assert.is(g.docId(docs[i].url), ref.urls.indexOf(ref.urls[i]));
    }
  }
});

test('hosts in order of first appearance; docId normalizes its argument', () => {
  const docs: Document[] = [
    { url: 'http://B.org/', bytes: new Uint8Array(0) },
    { url: 'http://a.org:80/x', bytes: new Uint8Array(0), links: ['http://b.org', 'HTTP://A.ORG/x#top'] },
    { url: 'http://b.org/y', bytes: new Uint8Array(0) },
  ];
  const g = WebGraph.fromDocuments(docs);
  assert.equal(g.hosts, ['b.org', 'a.org']);
  assert.equal(Array.from(g.hostOf), [0, 1, 0]);
  assert.is(g.docId('http://A.org/x#frag'), 1);
  assert.is(g.docId('http://b.org'), 0);
  assert.is(g.docId('http://nowhere/'), undefined);
  assert.equal(Array.from(g.outLinks(1)), [0]);
});

test('unparseable page URLs and links are reported with their page and skipped', () => {
  const errors: ReadError[] = [];
  const docs: Document[] = [
    { url: 'http://a.org/', bytes: new Uint8Array(0), links: ['http://[bad', 'http://a.org/2'], source: 'crawl.warc#0' },
    { url: 'http://a.org/2', bytes: new Uint8Array(0) },
    { url: '::nonsense::', bytes: new Uint8Array(0), source: 'crawl.warc#99' },
  ];
  const g = WebGraph.fromDocuments(docs, { onError: (e) => errors.push(e) });
  assert.is(errors.length, 2);
  assert.is(errors[0].source, 'crawl.warc#99');
  assert.match(errors[0].message, 'unparseable page URL');
  assert.is(errors[1].source, 'crawl.warc#0');
  assert.match(errors[1].location, 'http://a.org/');
  assert.equal(Array.from(g.outLinks(0)), [1]);
  assert.is(g.urls[2], '::nonsense::');
});

test('fromEdges dedupes, drops self-links, sorts rows and rejects bad ids', () => {
  const urls = ['http://a/', 'http://a/1', 'http://b/'];
  const g = WebGraph.fromEdges(urls, [[0, 2], [0, 1], [0, 2], [1, 1], [2, 0]]);
  assert.equal(Array.from(g.linkOffsets), [0, 2, 2, 3]);
  assert.equal(Array.from(g.linkTargets), [1, 2, 0]);
  assert.equal(Array.from(g.inLinks().targets), [2, 0, 0]);
  assert.throws(() => WebGraph.fromEdges(urls, [[0, 3]]), /edge DocId/);
  assert.throws(() => WebGraph.fromDocuments([], { bogus: 1 } as never), /unknown option/);
});

test.run();
