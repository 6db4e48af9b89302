// Cluster growing on random graphs: every output is a set of equal-sized, connected collections, one
// page per trivial cluster in each, grown along links; `similar` agrees with a brute-force Definition 5.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { findCollections } from '../../src/collections/find.js';
import { pageGraph, type PageGraph } from '../../src/collections/page-graph.js';
import { trivialFromLabels } from '../../src/collections/trivial.js';
import { rng } from '../helpers/random.js';

/** Random copies of a random site with a few pages edited and links dropped, so clusters form and break. */
function randomCopies(seed: number) {
  const r = rng(seed);
  const pages = 3 + Math.floor(r() * 8), copies = 2 + Math.floor(r() * 4);
  const site: Array<[number, number]> = [];
  for (let j = 1; j < pages; j++) site.push([Math.floor(r() * j), j]);
  for (let e = 0; e < pages; e++) site.push([Math.floor(r() * pages), Math.floor(r() * pages)]);
  const labels: number[] = [], hostOf: number[] = [], links: Array<[number, number]> = [];
  for (let x = 0; x < copies; x++) {
    const base = labels.length;
    for (let j = 0; j < pages; j++) { labels.push(r() < 0.1 ? 1000 + labels.length : j); hostOf.push(x); }
    for (const [a, b] of site) if (r() > 0.1) links.push([base + a, base + b]);
    // A link now and then into another copy (a mirror pointing at the primary).
    if (r() < 0.3) links.push([base + Math.floor(r() * pages), Math.floor(r() * pages)]);
  }
  return { graph: pageGraph(labels.length, hostOf, links), labels };
}

function linked(g: PageGraph, p: number, q: number): boolean {
  for (let e = g.linkOffsets[p]; e < g.linkOffsets[p + 1]; e++) if (g.linkTargets[e] === q) return true;
  return false;
}

/** Definition 5 with plain loops: every two collections, every column, a similar parent in both or none in either. */
function definition5(g: PageGraph, labels: number[], rows: number[][]): boolean {
  for (let x = 0; x < rows.length; x++) {
    for (let y = x + 1; y < rows.length; y++) {
      for (let c = 0; c < rows[x].length; c++) {
        const px = rows[x].filter((p) => linked(g, p, rows[x][c]));
        const py = rows[y].filter((p) => linked(g, p, rows[y][c]));
        if (px.length === 0 && py.length === 0) continue;
        if (!px.some((a) => py.some((b) => labels[a] === labels[b]))) return false;
      }
    }
  }
  return true;
}

test('grown clusters on 400 random graphs: structure, growth along links, Definition 5 flag', () => {
  let clusters = 0, notSimilar = 0, extendedSeen = 0;
  for (let seed = 1; seed <= 400; seed++) {
    const { graph, labels } = randomCopies(seed);
    const trivial = trivialFromLabels(labels);
    for (const extended of [false, true]) {
      const found = findCollections(graph, trivial, { extended, minSize: 1 });
      const seen = new Set<number>();
      for (const c of found.clusters) {
        clusters++;
        const rows = Array.from({ length: c.cardinality }, (_, x) => Array.from(c.pages.subarray(x * c.size, (x + 1) * c.size)));
        for (let col = 0; col < c.size; col++) {
          // A column is one trivial cluster, every page of it, in the start column one page per row.
          const column = rows.map((row) => row[col]);
          assert.ok(column.every((p) => trivial.rid[p] === c.trivial[col]));
          assert.equal([...new Set(column)].sort((a, b) => a - b), Array.from(trivial.pages.subarray(trivial.offsets[c.trivial[col]], trivial.offsets[c.trivial[col] + 1])));
          if (col > 0) for (const row of rows) assert.ok(linked(graph, row[c.parent[col]], row[col]), `seed ${seed}: column ${col} grew from ${c.parent[col]} without a link`);
          else assert.is(new Set(column).size, c.cardinality);
        }
        for (const row of rows) assert.is(new Set(row).size, c.size);
        if (!c.extended) for (const p of c.pages) { assert.not.ok(seen.has(p), 'a page in two collections of an exact run'); seen.add(p); }
        assert.is(c.similar, definition5(graph, labels, rows), `seed ${seed}`);
        if (!c.similar) notSimilar++;
        if (c.extended) extendedSeen++;
      }
      assert.equal([...found.clusters].map((c) => [c.cardinality, c.size]), [...found.clusters].map((c) => [c.cardinality, c.size]).sort((a, b) => b[0] - a[0] || b[1] - a[1]));
    }
  }
  assert.ok(clusters > 500 && notSimilar > 0 && extendedSeen > 0, `${clusters} clusters, ${notSimilar} not similar, ${extendedSeen} extended`);
});

test.run();
