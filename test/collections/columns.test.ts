// Chained trivial clusters: pages of one manual that only look alike (two release notes, two index
// pages) fall in one trivial cluster by transitive similarity; the column split takes them apart so
// that every copy of the manual comes out whole, one page per column.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { splitColumns } from '../../src/collections/columns.js';
import { collectionsOfGraph } from '../../src/collections/find.js';
import { pageGraph } from '../../src/collections/page-graph.js';
import { similarPages } from '../../src/collections/similarity.js';
import { init } from '../../src/index.js';
import { rng } from '../helpers/random.js';

await init();

/** A manual of `n` pages where pages 2k and 2k+1 share most of their lines, copied on three hosts, the third copy with one line edited per page. */
function chainedCrawl(n: number, seed: number) {
  const r = rng(seed);
  const line = () => Array.from({ length: 6 }, () => Math.floor(r() * 1e9).toString(36)).join(' ');
  const base = Array.from({ length: n }, () => Array.from({ length: 12 }, line));
  // Twins: page 2k+1 is page 2k with two of its twelve lines replaced.
  for (let k = 0; k + 1 < n; k += 2) { base[k + 1] = base[k].slice(); base[k + 1][3] = line(); base[k + 1][8] = line(); }
  const texts: string[] = [], urls: string[] = [], hostOf: number[] = [], template: number[] = [], links: Array<[number, number]> = [];
  for (let x = 0; x < 3; x++) {
    const first = texts.length;
    for (let j = 0; j < n; j++) {
      const lines = base[j].slice();
      if (x === 2) lines[11] = line();
      texts.push(lines.join('\n')); urls.push(`http://h${x}.example/m/p${j}.html`); hostOf.push(x); template.push(j);
      if (j > 0) { links.push([first + j, first]); links.push([first + Math.floor((j - 1) / 2), first + j]); }
    }
  }
  const g = pageGraph(texts.length, hostOf, links);
  return { graph: { ...g, urls, hosts: ['h0.example', 'h1.example', 'h2.example'] }, texts, template };
}

test('chained columns are split: each copy whole, one page of each template per column', () => {
  for (let seed = 1; seed <= 12; seed++) {
    const n = 10 + 2 * seed;
    const { graph, texts, template } = chainedCrawl(n, seed);
    const similar = similarPages(texts, { kind: 'chunks', unit: 'lines', lines: 1, threshold: 1, ratio: 0.5, markup: 'text' });
    // The twins are chained: trivial clusters of six pages, two per copy.
    assert.ok(Array.from(similar.trivial.size).some((s) => s === 6), `seed ${seed}`);
    const found = collectionsOfGraph(graph, similar, { minSize: 1 });
    assert.ok(found.stats.splitClusters > 0);
    assert.is(found.clusters.length, 1, `seed ${seed}`);
    const c = found.clusters[0];
    assert.equal([c.cardinality, c.size, c.complete], [3, n, true], `seed ${seed}`);
    for (let col = 0; col < c.size; col++) {
      const column = Array.from({ length: 3 }, (_, x) => c.pages[x * c.size + col]);
      assert.is(new Set(column.map((p) => template[p])).size, 1, `seed ${seed}: column ${col} mixes twins`);
    }
    // Without the pairs (bare trivial clusters) nothing can be split: the twins' columns are lost.
    const bare = collectionsOfGraph(graph, similar.trivial, { minSize: 1 });
    assert.ok(bare.clusters.every((k) => k.size < n), `seed ${seed}`);
  }
});

test('splitColumns: constrained single linkage, best pairs first, never two pages of one affinity in a column', () => {
  const texts = ['a b c d e f', 'a b c d e f', 'a b c d x y', 'a b c d x y', 'q', 'q'].map((t) => t.split(' ').join('\n'));
  const similar = similarPages(texts, { kind: 'chunks', unit: 'lines', lines: 1, threshold: 1, ratio: 0.5, markup: 'text' });
  // Pages 0, 2 in one collection, 1, 3 in another; 4 and 5 have none.
  assert.equal(Array.from(similar.trivial.size), [4, 2]);
  const affinity = Int32Array.from([7, 8, 7, 8, -1, -1]);
  const { trivial, split, refused } = splitColumns(similar, similar.trivial, affinity);
  assert.is(split, 1);
  assert.ok(refused > 0);
  assert.equal([trivial.rid[0] === trivial.rid[1], trivial.rid[2] === trivial.rid[3], trivial.rid[0] === trivial.rid[2], trivial.rid[4] === trivial.rid[5]], [true, true, false, true]);
  // Nothing to split: the clusters come back as they are.
  const none = splitColumns(similar, similar.trivial, Int32Array.from([1, 2, 3, 4, -1, -1]));
  assert.is(none.split, 0);
  assert.is(none.trivial, similar.trivial);
});

test.run();
