// Collections on the realistic slice (test/fixtures/realistic-slice): real documentation pages with
// truth from how the crawl was built. Several releases side by side (Django: origin, exact mirror,
// partial mirror under another prefix, older partial build; Paper.js: three releases, two on one
// host), an exact mirror re-encoded in EUC-JP, a page copied onto a blog with its links made
// absolute to another host. Checked: the invariants (with plain loops), the truth's correspondences,
// the mixed-release cluster, the replica summary's relations and the avoid-list's rules.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { avoidList } from '../../src/collections/avoid.js';
import { HOLE } from '../../src/collections/matrix.js';
import { replicatedCollections } from '../../src/collections/replicated.js';
import { replicaSummary } from '../../src/collections/summary.js';
import { utf8Bytes } from '../../src/graph/document.js';
import { init } from '../../src/index.js';
import { loadCrawl } from '../../src/io/crawl.js';
import { loadTruth, scoreReplicas } from '../../eval/manuals/evaluate.js';

await init();
const DIR = join('test', 'fixtures', 'realistic-slice');
const truthFile = (name: string) => JSON.parse(readFileSync(join(DIR, 'truth', name), 'utf8'));
const { pages } = truthFile('pages.json') as { pages: Array<{ url: string; work: string; copy: string; page: string; correspondences: Record<string, string> }> };
const { copies, copyPairs } = truthFile('copies.json') as {
  copies: Array<{ id: string; host: string; prefix: string; kind: string }>;
  copyPairs: Array<{ a: string; b: string; relation: string; mirror: boolean; common: number }>;
};
const byUrl = new Map(pages.map((p) => [p.url, p]));
const crawl = await loadCrawl([join(DIR, 'crawl')]);
const graph = crawl.graph;
// The slice's collections have 5 to 10 pages: noise below 2 here instead of the paper's 10.
const found = replicatedCollections(crawl.documents.map(utf8Bytes), graph, { minSize: 2 });
const truthOf = (p: number) => byUrl.get(graph.urls[p])!;
const rowsOf = (k: number) => {
  const c = found.clusters[k];
  return Array.from({ length: c.cardinality }, (_, x) => Array.from(c.pages.subarray(x * c.size, (x + 1) * c.size), (p) => (p === HOLE ? -1 : p)));
};

function linked(p: number, q: number): boolean {
  for (let e = graph.linkOffsets[p]; e < graph.linkOffsets[p + 1]; e++) if (graph.linkTargets[e] === q) return true;
  return false;
}

test('the invariants, with plain loops: disjoint, one host, one copy, under the prefix, connected, columns of corresponding pages', () => {
  assert.is(found.stats.dropped, 0);
  const seen = new Set<number>();
  found.clusters.forEach((c, k) => {
    const rows = rowsOf(k);
    // No cluster mixes two manuals (the translations of the handbook are different manuals).
    const works = new Set(rows.flat().filter((p) => p >= 0).map((p) => truthOf(p).work));
    assert.is(works.size, 1, `cluster ${k} mixes ${[...works]}`);
    rows.forEach((row, x) => {
      const held = row.filter((p) => p >= 0);
      for (const p of held) { assert.not.ok(seen.has(p), graph.urls[p]); seen.add(p); }
      assert.is(new Set(held.map((p) => truthOf(p).copy)).size, 1, 'a collection is one copy');
      assert.is(new Set(held.map((p) => graph.hostOf[p])).size, 1);
      assert.ok(held.every((p) => graph.urls[p].startsWith(c.prefixes[x])));
      // Connected through links either way between its pages, or through a URL of its host that two
      // of them link to and the crawl lacks (the slice holds 10 of a manual's 539 pages).
      const reach = new Set([held[0]]);
      const missing = (p: number) => new Set(graph.externalUrls.slice(graph.externalOffsets[p], graph.externalOffsets[p + 1]).filter((u) => new URL(u).host === new URL(graph.urls[p]).host));
      for (let grown = true; grown;) {
        grown = false;
        for (const q of held) {
          if (reach.has(q)) continue;
          const mq = missing(q);
          if ([...reach].some((p) => linked(p, q) || linked(q, p) || [...missing(p)].some((u) => mq.has(u)))) { reach.add(q); grown = true; }
        }
      }
      assert.is(reach.size, held.length, `collection ${x} of cluster ${k} is not connected`);
    });
    // Each column holds one page of the manual in every copy that has it (the truth's correspondences).
    for (let col = 0; col < c.size; col++) {
      const column = rows.map((r) => r[col]).filter((p) => p >= 0);
      assert.ok(column.length >= 2);
      assert.is(new Set(column.map((p) => truthOf(p).page)).size, 1, `column ${col} of cluster ${k}`);
    }
  });
});

test('every mirror pair of copies: its common pages in one cluster, each side in its own collection', () => {
  const where = new Map<number, [number, number]>();
  found.clusters.forEach((_c, k) => rowsOf(k).forEach((row, x) => row.forEach((p) => { if (p >= 0) where.set(p, [k, x]); })));
  const covered: Record<string, number> = {};
  for (const pair of copyPairs.filter((cp) => cp.mirror)) {
    let both = 0;
    for (const p of pages.filter((q) => q.copy === pair.a)) {
      const other = p.correspondences[pair.b];
      if (!other) continue;
      const a = where.get(graph.docId(p.url)!), b = where.get(graph.docId(other)!);
      if (a && b && a[0] === b[0] && a[1] !== b[1]) both++;
    }
    covered[`${pair.a} ${pair.b}`] = both / pair.common;
  }
  // Every common page sits in a cluster beside its counterpart, but for Paper.js 0.10.3's
  // PaperScript page, rewritten since (resemblance 0.29). The handbook pages of the slice are two
  // link components, joined through the contents page both link to and the slice lacks.
  assert.equal(covered, {
    'django-origin django-mirror': 1, 'django-origin django-partial': 1, 'django-origin django-archive': 1,
    'django-mirror django-partial': 1, 'django-mirror django-archive': 1, 'django-partial django-archive': 1,
    'handbook-ja-origin handbook-ja-eucjp': 1,
    'paper-origin paper-lagging': 1, 'paper-origin paper-older': 7 / 8, 'paper-lagging paper-older': 7 / 8,
  });
  const handbook = found.clusters.filter((c) => graph.hosts[graph.hostOf[c.roots[0]]].includes('handbook') || graph.hosts[graph.hostOf[c.roots[0]]] === 'nihongo.example');
  assert.equal(handbook.map((c) => [c.cardinality, c.size, c.complete]), [[2, 5, true]]);
});

test('several releases side by side: the full copies at full size, the partial and older copies joined at the pages they share', () => {
  const k = found.clusterOf[graph.docId('http://docs.django.example.org/en/3.2/releases/1.2.1.html')!];
  const c = found.clusters[k];
  assert.equal([c.cardinality, c.size, c.complete], [4, 10, false]);
  const held = Object.fromEntries(rowsOf(k).map((row, x) => [truthOf(row.find((p) => p >= 0)!).copy, c.held[x]]));
  assert.equal(held, { 'django-archive': 5, 'django-mirror': 10, 'django-origin': 10, 'django-partial': 5 });
  // Paper.js: three releases, two of them side by side on one host, in one cluster.
  const paper = found.clusters[found.clusterOf[graph.docId('http://paperjs.example.org/reference/classes/Event.html')!]];
  assert.is(paper.cardinality, 3);
  assert.is(new Set(Array.from(paper.roots, (p) => graph.hostOf[p])).size, 2);
});

test('copied single pages: the blog copy with absolute links to another host is in no collection, nor is the English original', () => {
  for (const url of ['http://blog.example.com/notes/debian-apt-get.html', 'http://handbook.example.org/en-US/sect.apt-get.html']) {
    assert.is(found.clusterOf[graph.docId(url)!], -1, url);
  }
  // The blog page is a copy of the English page (one trivial cluster); its links lead to the other
  // host, which never joins a collection.
  assert.is(found.trivial.rid[graph.docId('http://blog.example.com/notes/debian-apt-get.html')!], found.trivial.rid[graph.docId('http://handbook.example.org/en-US/sect.apt-get.html')!]);
});

test('replica summary: relations agree with how the slice was built', () => {
  const copyOf = (prefix: string) => copies.find((c) => prefix.startsWith(`http://${c.host}${c.prefix}`))!.id;
  const records = replicaSummary(found, graph, found.similarity);
  const got = Object.fromEntries(records.map((r) => [[copyOf(r.a.prefix), copyOf(r.b.prefix)].sort().join(' '), r.relation]));
  const want = Object.fromEntries(copyPairs.filter((p) => p.mirror).map((p) => [[p.a, p.b].sort().join(' '), p.relation]));
  assert.equal(got, want);
  for (const r of records) {
    assert.ok(r.coverageA > 0 && r.coverageA <= 1 && r.coverageB > 0 && r.coverageB <= 1);
    assert.is(r.identical === r.common, r.relation === 'exact' || r.relation === 'partial');
  }
});

test('the evaluation\'s replica measure: every mirror pair of the slice once, relations agreeing; wrong records counted', () => {
  const truth = loadTruth(join(DIR, 'truth'));
  const records = replicaSummary(found, graph, found.similarity);
  const score = scoreReplicas(truth, records);
  assert.equal([score.onMirrors, score.agree, score.notMirrors, score.mirrorPairs], [10, 10, 0, 10]);
  const wrong = [{ ...records[0], relation: 'partial' }, { ...records[0], a: { ...records[0].a, root: 'http://blog.example.com/notes/debian-apt-get.html' } }];
  const bad = scoreReplicas(truth, wrong);
  assert.equal([bad.onMirrors, bad.agree, bad.notMirrors], [1, 0, 1]);
});

test('avoid-list: mirror hosts are one rule each, covering URLs not crawled yet; no kept page is skipped', () => {
  const list = avoidList(found, graph, { minRulePages: 5, resemblance: found.similarity.resemblance });
  const hostRules = list.entries.filter((e) => e.kind === 'host');
  assert.ok(hostRules.length >= 1);
  // The exact Django mirror, the host holding only the partial Django copy, the EUC-JP handbook
  // mirror, and Paper.js: with no links from other hosts, the most complete copy first crawled is
  // kept (0.12.11), so the origin's host (0.12.18, lagging relative to it) is skipped; --keep newest
  // or host:NAME choose otherwise.
  assert.equal(hostRules.map((e) => [e.value, e.relation, e.lost]).sort(), [
    ['docs.django.example.org', 'exact', 0], ['mirror.example.net', 'partial', 0], ['nihongo.example', 'exact', 0], ['paperjs.example.org', 'lagging', 0],
  ]);
  const keepOrigin = avoidList(found, graph, { minRulePages: 5, keep: 'host:paperjs.example.org' });
  assert.not.ok(keepOrigin.shouldSkip('http://paperjs.example.org/reference/classes/Event.html'));
  assert.ok(keepOrigin.shouldSkip('http://archive.example.com/paperjs/0.12.11/classes/Event.html'));
  for (const e of list.entries) assert.not.ok(list.shouldSkip(e.keep), `the kept copy ${e.keep} is skipped`);
  const skippedHost = hostRules[0].value;
  assert.ok(list.shouldSkip(`http://${skippedHost}/en/3.2/releases/9.9.html`));
  assert.is(list.redundancy.lostPages, 0);
});

test.run();
