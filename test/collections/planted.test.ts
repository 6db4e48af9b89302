// Generated crawls with planted replicated collections, lagging copies, partial mirrors and noise:
// every planted cluster is recovered with its cardinality and size, and no cluster mixes two.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ReplicatedCollections } from '../../src/collections/find.js';
import { plantedCrawl, type PlantedCrawl, type PlantedOptions } from '../../src/collections/planted.js';
import { replicatedCollections, type ReplicatedOptions } from '../../src/collections/replicated.js';
import { init } from '../../src/index.js';
import { HOLE } from '../../src/collections/matrix.js';

await init();

const LINES2 = { kind: 'chunks', unit: 'lines', lines: 2, threshold: 4, markup: 'text' } as const;

function crawlAndFind(p: PlantedOptions, o: ReplicatedOptions): { crawl: PlantedCrawl; found: ReplicatedCollections } {
  const crawl = plantedCrawl(p);
  return { crawl, found: replicatedCollections(crawl.texts, crawl, { similarity: LINES2, ...o }) };
}

/** No cluster holds pages of two planted collections, or noise with a collection. */
function assertUnmixed(crawl: PlantedCrawl, found: ReplicatedCollections): void {
  for (const c of found.clusters) {
    const owners = new Set(Array.from(c.pages).filter((p) => p !== HOLE).map((p) => crawl.collection[p]));
    assert.is(owners.size, 1, `a cluster mixes collections ${[...owners]}`);
    // Each column holds copies of one template page.
    for (let col = 0; col < c.size; col++) {
      const column = Array.from({ length: c.cardinality }, (_, x) => c.pages[x * c.size + col]).filter((p) => p !== HOLE);
      assert.is(new Set(column.map((p) => crawl.template[p])).size, 1, 'a column mixes pages');
    }
  }
}

/** The cluster holding collection k's primary root. */
function clusterOfCollection(crawl: PlantedCrawl, found: ReplicatedCollections, k: number) {
  const root = crawl.urls.findIndex((_u, p) => crawl.collection[p] === k && crawl.copy[p] === 0 && crawl.template[p] === 0);
  const index = found.clusterOf[root];
  assert.ok(index >= 0, `collection ${k} not found`);
  return found.clusters[index];
}

test('full copies with lagging ones and noise: each collection is one cluster, copies × pages', () => {
  const p = { collections: 6, copies: 4, pages: 25, laggingCopies: 2, editedPages: 3, noisePages: 300, seed: 1 };
  const { crawl, found } = crawlAndFind(p, {});
  assertUnmixed(crawl, found);
  for (let k = 0; k < p.collections; k++) {
    const c = clusterOfCollection(crawl, found, k);
    assert.is(c.cardinality, 4);
    assert.is(c.size, 25);
    assert.is(c.noise, false);
    assert.is(c.similar, true);
    // One row per copy, each on its own host, rooted at the copy's entry page.
    const copies = Array.from({ length: c.cardinality }, (_, x) => {
      const row = Array.from(c.pages.subarray(x * c.size, (x + 1) * c.size));
      const copy = new Set(row.map((q) => crawl.copy[q]));
      assert.is(copy.size, 1, 'a collection spans two copies');
      assert.is(crawl.template[c.roots[x]], 0, 'the root is the entry page');
      assert.ok(crawl.urls[c.roots[x]].startsWith(c.prefixes[x]));
      return [...copy][0];
    });
    assert.equal(copies.sort(), [0, 1, 2, 3]);
  }
  // Every collection page is in its cluster; the remaining clusters come from duplicated noise pages.
  for (let q = 0; q < crawl.size; q++) if (crawl.collection[q] >= 0) assert.ok(found.clusterOf[q] >= 0);
  const big = found.clusters.filter((c) => !c.noise);
  assert.is(big.length, p.collections);
});

test('partial mirrors join their cluster at the pages they hold; the paper growth finds only the mirrored half', () => {
  const p = { collections: 5, copies: 3, pages: 24, partialMirrors: 2, partialFraction: 0.5, laggingCopies: 1, noisePages: 200, seed: 2 };
  const mixed = crawlAndFind(p, {});
  assertUnmixed(mixed.crawl, mixed.found);
  for (let k = 0; k < p.collections; k++) {
    const c = clusterOfCollection(mixed.crawl, mixed.found, k);
    assert.is(c.cardinality, 5, 'three full copies and two partial mirrors');
    assert.is(c.size, 24);
    assert.is(c.complete, false);
    assert.is(c.similar, true);
    // A partial mirror's row holds its own 12 pages and nothing of the others: holes elsewhere.
    const held = Array.from({ length: c.cardinality }, (_, x) => {
      const row = Array.from(c.pages.subarray(x * c.size, (x + 1) * c.size)).filter((q) => q !== HOLE);
      assert.is(new Set(row.map((q) => mixed.crawl.copy[q])).size, 1, 'a collection spans two copies');
      return row.length;
    }).sort((a, b) => a - b);
    assert.equal(held, [12, 12, 24, 24, 24]);
  }
  const paper = crawlAndFind(p, { growth: 'paper' });
  assertUnmixed(paper.crawl, paper.found);
  for (let k = 0; k < p.collections; k++) {
    const c = clusterOfCollection(paper.crawl, paper.found, k);
    assert.is(c.cardinality, 5);
    assert.is(c.size, 12, 'only the mirrored half');
    assert.is(c.complete, true);
  }
});

test('the paper growth, sketch similarity and the default windows recover the same full-copy clusters', () => {
  const p = { collections: 4, copies: 3, pages: 20, laggingCopies: 1, editedPages: 2, noisePages: 150, seed: 3 };
  for (const o of [{ growth: 'paper' }, { similarity: 'sketch:0.5' }, { similarity: 'windows:2:0.5' }] as ReplicatedOptions[]) {
    const { crawl, found } = crawlAndFind(p, o);
    assertUnmixed(crawl, found);
    for (let k = 0; k < p.collections; k++) {
      const c = clusterOfCollection(crawl, found, k);
      assert.equal([c.cardinality, c.size], [3, 20], JSON.stringify(o));
    }
  }
});

test('a page rewritten in one copy: a break point that splits the paper\'s collections, a hole in the mixed growth', () => {
  // Four-line chunks with T = 15 cannot be met by 12-line pages, so only identical pages are similar:
  // the lagging copy's edited pages fall out, and the pages they separated are reported.
  const crawl = plantedCrawl({ collections: 2, copies: 3, pages: 20, laggingCopies: 1, editedPages: 2, noisePages: 50, seed: 4 });
  const found = replicatedCollections(crawl.texts, crawl, { similarity: 'chunks:4:15', growth: 'paper' });
  assertUnmixed(crawl, found);
  const edited = new Set<number>();
  for (let q = 0; q < crawl.size; q++) {
    if (crawl.collection[q] < 0) continue;
    const same = crawl.urls.findIndex((_u, r) => crawl.collection[r] === crawl.collection[q] && crawl.template[r] === crawl.template[q] && crawl.copy[r] === 0);
    if (crawl.texts[same] !== crawl.texts[q]) edited.add(q);
  }
  assert.ok(edited.size > 0);
  for (const q of edited) assert.is(found.clusterOf[q], -1, 'an edited page has no similar page here');
  const breaks = Array.from(found.breakPoints.pages);
  assert.ok(breaks.some((q) => edited.has(q)), 'an edited page splits its copy');
  // Inside collections, break points are edited pages or the unedited copies of the same page (whose
  // column lost its cardinality); elsewhere they can only be noise pages between duplicated noise.
  const editedTemplates = new Set([...edited].map((q) => `${crawl.collection[q]}/${crawl.template[q]}`));
  for (const q of breaks) {
    if (crawl.collection[q] < 0) continue;
    assert.ok(editedTemplates.has(`${crawl.collection[q]}/${crawl.template[q]}`), `break point ${crawl.urls[q]}`);
  }
  // The lagging copy's collection is split into several clusters.
  const k = crawl.collection[[...edited][0]];
  const clusters = new Set<number>();
  for (let q = 0; q < crawl.size; q++) if (crawl.collection[q] === k && crawl.copy[q] === 0) clusters.add(found.clusterOf[q]);
  assert.ok(clusters.size > 1);
  // The mixed growth keeps each collection whole: the edited pages are holes of the lagging copy (or,
  // where the lagging copy links around them, their column is held by the two others).
  const mixed = replicatedCollections(crawl.texts, crawl, { similarity: 'chunks:4:15' });
  assertUnmixed(crawl, mixed);
  for (let c = 0; c < 2; c++) {
    const cluster = clusterOfCollection(crawl, mixed, c);
    assert.equal([cluster.cardinality, cluster.size], [3, 20]);
  }
  for (const q of edited) assert.is(mixed.clusterOf[q], -1);
});

test('a crawl with no links: trivial clusters, no collection (the paper growth reports the trivial clusters)', () => {
  const crawl = plantedCrawl({ collections: 2, copies: 3, pages: 5, noisePages: 10, seed: 5 });
  const bare = { ...crawl, linkOffsets: new Uint32Array(crawl.size + 1), linkTargets: new Uint32Array(0) };
  const found = replicatedCollections(crawl.texts, bare, { similarity: LINES2 });
  assert.ok(Array.from(found.similarity.trivial.size).some((s) => s === 3));
  assert.equal(found.clusters, [], 'a collection is link-connected: without links there is none');
  const paper = replicatedCollections(crawl.texts, bare, { similarity: LINES2, growth: 'paper' });
  assert.ok(paper.clusters.every((c) => c.size === 1));
  assert.ok(paper.clusters.filter((c) => c.cardinality === 3).length >= 10);
});

test.run();
