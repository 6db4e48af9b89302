import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { linkSummary } from '../../src/collections/link-summary.js';
import { mergeCondition } from '../../src/collections/merge.js';
import { pageGraph } from '../../src/collections/page-graph.js';
import { trivialFromLabels } from '../../src/collections/trivial.js';
import { linkSummaryWithDuckDB } from '../../src/scale/link-summary.js';
import { linkRows, memberRows, documentRows } from '../../src/scale/rows.js';
import { writeParquetFile } from '../../src/scale/parquet-file.js';
import { scratch } from './helpers.js';
import { rng } from '../helpers/random.js';

const folder = scratch();
const rnd = rng(17);

/**
 * Mirrored collections (copies of a chain of pages on their own hosts, page j of each copy in one
 * trivial cluster, so Cho's merge condition holds along the chain), partial mirrors (a copy missing
 * its last pages), and random pages and links around them.
 */
function web() {
  const label: number[] = [], host: number[] = [], links: [number, number][] = [];
  const collections = 6;
  for (let c = 0; c < collections; c++) {
    const copies = 2 + (c % 3), pages = 3 + c;
    const first = label.length;
    for (let x = 0; x < copies; x++) {
      const kept = x === copies - 1 && c % 2 === 1 ? pages - 1 : pages;
      for (let j = 0; j < kept; j++) { label.push(1000 * (c + 1) + j); host.push(100 + c * 10 + x); }
    }
    // Page j of every copy links to page j + 1 of its copy (or, for the short copy, to the first copy's).
    for (let p = first; p < label.length; p++) {
      const j = label[p] % 1000;
      let q = p + 1;
      if (q >= label.length || label[q] % 1000 !== j + 1 || host[q] !== host[p]) q = first + j + 1;
      if (label[q] !== undefined && label[q] === label[p] + 1) links.push([p, q]);
    }
  }
  const pages = label.length + 200;
  for (let p = label.length; p < pages; p++) { label.push(Math.floor(rnd() * 150)); host.push(Math.floor(rnd() * 8)); }
  for (let k = 0; k < 1500; k++) links.push([Math.floor(rnd() * pages), Math.floor(rnd() * pages)]);
  const graph = pageGraph(pages, host, links);
  return { graph, trivial: trivialFromLabels(label), host: Uint32Array.from(host) };
}

const { graph, trivial, host } = web();

for (const [name, options] of [
  ['all links', {}],
  ['single site, minSourceSize 2', { singleSite: true, minSourceSize: 2 }],
] as const) {
  test(`LinkSummary in SQL equals the in-memory LinkSummary: ${name}`, async () => {
    const expected = linkSummary(graph, trivial, options);
    assert.ok(expected.length > 30, 'the graph has rows');
    for (const merge of ['exact', 'extended'] as const) {
      const actual = await linkSummaryWithDuckDB({
        members: trivial, links: graph, hosts: 'singleSite' in options ? host : undefined,
        minSourceSize: 'minSourceSize' in options ? options.minSourceSize : undefined, merge, tempDir: folder,
      });
      assert.is(actual.length, expected.length);
      for (const k of ['ri', 'rj', 'a', 'b', 's', 'd'] as const) assert.equal(Array.from(actual[k]), Array.from(expected[k]), k);
      const ri: number[] = [], rj: number[] = [];
      for (let g = 0; g < expected.length; g++) {
        if (mergeCondition(expected.a[g], expected.s[g], expected.d[g], expected.b[g], merge === 'extended')) { ri.push(expected.ri[g]); rj.push(expected.rj[g]); }
      }
      assert.ok(ri.length >= 5, `${merge}: planted rows meet the merge condition`);
      assert.equal(Array.from(actual.merges!.ri), ri, `${merge} merges`);
      assert.equal(Array.from(actual.merges!.rj), rj, `${merge} merges`);
    }
  });
}

test('LinkSummary from Parquet files of the contract (members, links, documents with hosts)', async () => {
  const expected = linkSummary(graph, trivial, { singleSite: true });
  writeParquetFile(join(folder, 'members.parquet'), 'members', memberRows(trivial));
  writeParquetFile(join(folder, 'links.parquet'), 'links', linkRows(graph));
  writeParquetFile(join(folder, 'documents.parquet'), 'documents', documentRows(Array.from(host, (h, i) => ({ url: `http://h${h}.example/p${i}` }))));
  const actual = await linkSummaryWithDuckDB({ members: join(folder, 'members.parquet'), links: join(folder, 'links.parquet'), hosts: join(folder, 'documents.parquet'), tempDir: folder });
  for (const k of ['ri', 'rj', 'a', 'b', 's', 'd'] as const) assert.equal(Array.from(actual[k]), Array.from(expected[k]), k);
});

test.after(() => rmSync(folder, { recursive: true, force: true }));
test.run();
