// Both growths on random crawls (full, partial and edited copies of a random site, two copies on one
// host now and then, links between copies): every output meets the invariants, checked here with
// plain loops independent of the library's own check — a page in at most one collection, each
// collection on one host under its prefix and link-connected, each column similar pages of two
// collections or more, Definition 5 between every two collections on the columns both hold.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { collectionsOfGraph, type CollectionOptions } from '../../src/collections/find.js';
import { HOLE } from '../../src/collections/matrix.js';
import { pageGraph, type NamedPageGraph } from '../../src/collections/page-graph.js';
import { trivialFromLabels } from '../../src/collections/trivial.js';
import { rng } from '../helpers/random.js';

/** Random copies of a random site: some partial, some with pages edited and links dropped, some sharing a host. */
function randomCrawl(seed: number): { graph: NamedPageGraph; labels: number[] } {
  const r = rng(seed);
  const pages = 3 + Math.floor(r() * 10), copies = 2 + Math.floor(r() * 5);
  const site: Array<[number, number]> = [];
  for (let j = 1; j < pages; j++) site.push([Math.floor(r() * j), j]);
  for (let e = 0; e < pages; e++) site.push([Math.floor(r() * pages), Math.floor(r() * pages)]);
  const labels: number[] = [], urls: string[] = [], hostNames: string[] = [], hostOf: number[] = [], links: Array<[number, number]> = [];
  const hostIndex = (h: string) => { let i = hostNames.indexOf(h); if (i < 0) { i = hostNames.length; hostNames.push(h); } return i; };
  const bases: number[] = [];
  for (let x = 0; x < copies; x++) {
    const base = labels.length;
    bases.push(base);
    // Now and then a copy shares the previous copy's host, in a folder of its own.
    const host = x > 0 && r() < 0.25 ? hostNames[hostOf[bases[x - 1]]] : `h${x}.example`;
    const held = r() < 0.3 ? new Set(Array.from({ length: pages }, (_, j) => j).filter(() => r() < 0.6)) : undefined;
    const id = new Int32Array(pages).fill(-1);
    for (let j = 0; j < pages; j++) {
      if (held && !held.has(j)) continue;
      id[j] = labels.length;
      labels.push(r() < 0.1 ? 1000 + labels.length : j);
      urls.push(`http://${host}/c${x}/p${j}.html`);
      hostOf.push(hostIndex(host));
    }
    for (const [a, b] of site) if (id[a] >= 0 && id[b] >= 0 && r() > 0.1) links.push([id[a], id[b]]);
    // A link now and then into another copy (a mirror pointing at the primary), or a page linking to itself.
    if (r() < 0.3 && base < labels.length) links.push([base + Math.floor(r() * (labels.length - base)), Math.floor(r() * labels.length)]);
    if (r() < 0.2 && base < labels.length) links.push([base, base]);
  }
  const g = pageGraph(labels.length, hostOf, links);
  return { graph: { ...g, urls, hosts: hostNames }, labels };
}

function linked(g: NamedPageGraph, p: number, q: number): boolean {
  for (let e = g.linkOffsets[p]; e < g.linkOffsets[p + 1]; e++) if (g.linkTargets[e] === q) return true;
  return false;
}

/**
 * Breadth-first over links either way from the first page, through the given pages and pages of
 * their host under the prefix that are in no collection (`listed`): are they one piece?
 */
function connected(g: NamedPageGraph, pages: number[], prefix: string, listed: Set<number>): boolean {
  const through = (q: number) => pages.includes(q) || (!listed.has(q) && g.hostOf[q] === g.hostOf[pages[0]] && g.urls[q].startsWith(prefix));
  const seen = new Set([pages[0]]), queue = [pages[0]];
  while (queue.length) {
    const p = queue.pop()!;
    for (let q = 0; q < g.size; q++) if (!seen.has(q) && through(q) && (linked(g, p, q) || linked(g, q, p))) { seen.add(q); queue.push(q); }
  }
  return pages.every((p) => seen.has(p));
}

/** Definition 5 on the columns both rows hold: a parent in a common column, or no parent there in either. */
function definition5(g: NamedPageGraph, labels: number[], a: Array<number | null>, b: Array<number | null>): boolean {
  const common = a.map((_p, c) => c).filter((c) => a[c] !== null && b[c] !== null);
  for (const c of common) {
    const pa = common.filter((d) => linked(g, a[d]!, a[c]!));
    const pb = common.filter((d) => linked(g, b[d]!, b[c]!));
    if (pa.length === 0 && pb.length === 0) continue;
    if (!pa.some((d) => pb.includes(d))) return false;
  }
  return true;
}

test('both growths on 400 random crawls: every cluster meets the invariants', () => {
  let clusters = 0, withHoles = 0, sameHost = 0, byPath = 0;
  for (let seed = 1; seed <= 400; seed++) {
    const { graph, labels } = randomCrawl(seed);
    const trivial = trivialFromLabels(labels);
    for (const growth of ['mixed', 'paper'] as const) {
      const options: CollectionOptions = { growth, minSize: 1 };
      const found = collectionsOfGraph(graph, trivial, options);
      const where = `seed ${seed} ${growth}`;
      assert.is(found.stats.dropped, 0, where);
      const seen = new Set<number>();
      const listed = new Set<number>();
      for (const c of found.clusters) for (const p of c.pages) if (p !== HOLE) listed.add(p);
      for (const c of found.clusters) {
        clusters++;
        const rows = Array.from({ length: c.cardinality }, (_, x) => Array.from(c.pages.subarray(x * c.size, (x + 1) * c.size), (p) => (p === HOLE ? null : p)));
        for (let x = 0; x < rows.length; x++) {
          const held = rows[x].filter((p): p is number => p !== null);
          assert.ok(held.length >= 1 && held.length === c.held[x], where);
          for (const p of held) { assert.not.ok(seen.has(p), `${where}: page ${p} in two collections`); seen.add(p); }
          assert.is(new Set(held.map((p) => graph.hostOf[p])).size, 1, `${where}: a collection spans hosts`);
          assert.ok(held.every((p) => graph.urls[p].startsWith(c.prefixes[x])), `${where}: a page outside its prefix`);
          // columns joined by path are linked by nothing crawled; the others are one piece
          const linkedHeld = rows[x].filter((p, col): p is number => p !== null && !c.byPath?.[col]);
          assert.ok(connected(graph, linkedHeld, c.prefixes[x], listed), `${where}: a collection that is not link-connected`);
          assert.is(c.roots[x], held[0], where);
          if (rows.some((row, y) => y !== x && graph.hostOf[row.find((p) => p !== null)!] === graph.hostOf[held[0]])) sameHost++;
        }
        for (let col = 0; col < c.size; col++) {
          const column = rows.map((row) => row[col]).filter((p): p is number => p !== null);
          assert.ok(column.length >= 2, `${where}: column ${col} in one collection`);
          assert.is(new Set(column.map((p) => labels[p])).size, 1, `${where}: a column of pages that are not similar`);
          if (c.byPath?.[col]) {
            byPath++;
            const paths = rows.map((row, x) => (row[col] === null ? null : graph.urls[row[col]!].slice(c.prefixes[x].length))).filter((s) => s !== null);
            assert.is(new Set(paths).size, 1, `${where}: a column joined by path at two paths`);
            assert.is(growth, 'mixed', where);
          }
        }
        if (!c.complete) withHoles++;
        assert.is(c.complete, rows.every((row) => row.every((p) => p !== null)));
        for (let x = 0; x < rows.length; x++) for (let y = x + 1; y < rows.length; y++) assert.ok(definition5(graph, labels, rows[x], rows[y]), `${where}: Definition 5 between ${x} and ${y}`);
        assert.ok(c.similar);
      }
      // By cardinality, then size, both descending.
      const order = found.clusters.map((c) => [c.cardinality, c.size]);
      assert.equal(order, [...order].sort((a, b) => b[0] - a[0] || b[1] - a[1]), where);
      for (let p = 0; p < graph.size; p++) assert.is(found.clusterOf[p] >= 0, seen.has(p), where);
    }
  }
  assert.ok(clusters > 500 && withHoles > 50 && sameHost > 10 && byPath > 0, `${clusters} clusters, ${withHoles} with holes, ${sameHost} collections beside another copy on their host, ${byPath} columns joined by path`);
});

test('mixed growth recovers full copies at full size where the paper growth breaks at a partial copy', () => {
  // Three full copies of a connected site and one partial copy holding half of it.
  let mixedFull = 0, paperFull = 0, runs = 0;
  for (let seed = 1; seed <= 100; seed++) {
    const r = rng(1000 + seed);
    const pages = 6 + Math.floor(r() * 10);
    const site: Array<[number, number]> = [];
    for (let j = 1; j < pages; j++) { site.push([Math.floor(r() * j), j]); site.push([j, 0]); }
    const labels: number[] = [], urls: string[] = [], hostOf: number[] = [], links: Array<[number, number]> = [];
    for (let x = 0; x < 4; x++) {
      const id = new Int32Array(pages).fill(-1);
      for (let j = 0; j < (x === 3 ? Math.ceil(pages / 2) : pages); j++) { id[j] = labels.length; labels.push(j); urls.push(`http://h${x}.example/d/p${j}.html`); hostOf.push(x); }
      for (const [a, b] of site) if (id[a] >= 0 && id[b] >= 0) links.push([id[a], id[b]]);
    }
    const g = pageGraph(labels.length, hostOf, links);
    const graph = { ...g, urls, hosts: ['h0.example', 'h1.example', 'h2.example', 'h3.example'] };
    runs++;
    const mixed = collectionsOfGraph(graph, trivialFromLabels(labels), { minSize: 1 });
    if (mixed.clusters.length === 1 && mixed.clusters[0].size === pages && mixed.clusters[0].cardinality === 4) mixedFull++;
    const paper = collectionsOfGraph(graph, trivialFromLabels(labels), { minSize: 1, growth: 'paper' });
    if (paper.clusters.some((c) => c.size === pages)) paperFull++;
  }
  assert.is(mixedFull, runs, 'one cluster of four copies at full size, every time');
  assert.is(paperFull, 0, 'the exact condition never reaches full size');
});

test.run();
