// Content mode in the streaming pipeline. The streamed content sketches, for 1, 2 and 3 workers,
// small batches and a small bound on held pages, are bit-identical to one sketchMany call over
// the whole crawl against the tables a TemplateLearner learns when fed the pages in input order
// (the reference: no batching, no reordering). The exact checks compare content shingle sets,
// checked against the slow reference (string tokenizer, template rules, shingles).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, sketchMany } from '../../src/index.js';
import { utf8Bytes } from '../../src/graph/document.js';
import { loadCrawl } from '../../src/io/crawl.js';
import { TemplateLearner, WHOLE_PAGE } from '../../src/template/index.js';
import { packTables, siteAndHostOfUrl } from '../../src/template/crawl-templates.js';
import { sectionOfUrl } from '../../src/template/sketch.js';
import { exactPairs, intersectionCount } from '../../src/cluster/exact-pairs.js';
import { nearDuplicatesOfCrawl } from '../../src/cluster/stream.js';
import { siteOfUrl, sketchCrawl } from '../../src/stream/sketch-crawl.js';
import { hostOfUrl } from '../../src/graph/url.js';
import { SiteRouter } from '../../src/template/sites.js';
import { pageIdentity } from '../../src/template/stub.js';
import { contentTokensRef } from '../../src/reference/template.js';
import { shingleValuesRef } from '../../src/reference/shingles.js';
import { ResembleError } from '../../src/errors.js';
import { tempDir } from '../io/fixtures.js';
import { writeInputs } from './fixtures.js';

await init();
const { dir, cleanup } = tempDir();
const inputs = await writeInputs(dir);
const MAIN = { content: 'main' } as const;
const columns = ['values', 'offsets', 'cardinality', 'tokens', 'modulusLog2', 'rawFp', 'lexicalFp', 'shingleFp', 'templateTokens'] as const;

/** The reference: a learner fed every page in input order, then one sketchMany call in DocId order. */
async function reference(path: string, maxHeldBytes?: number, heavy?: number) {
  const { documents } = await loadCrawl(path, { links: false });
  const bytes = documents.map(utf8Bytes);
  // sites as the pipeline routes them: a SiteRouter, held pages moved by it when their site settles
  let router: SiteRouter | undefined;
  const learner = new TemplateLearner<number>({ ...(maxHeldBytes ? { maxHeldBytes } : {}), ...(heavy !== undefined ? { heavy } : {}) }, undefined, (_s, i, doc) => router!.route(documents[i].url, () => pageIdentity(doc)).site);
  const tableOf: (BigUint64Array | undefined)[] = new Array(bytes.length);
  router = new SiteRouter(learner.trustAfter);
  const released = [...bytes.flatMap((b, i) => learner.add(b, router!.route(documents[i].url, () => pageIdentity(b)).site, i, hostOfUrl(documents[i].url))), ...learner.flush()];
  for (const r of released) tableOf[r.item] = r.table;
  const distinct = [...new Set(tableOf.filter((t): t is BigUint64Array => t !== undefined))];
  const templates = packTables(distinct, Uint32Array.from(tableOf, (t) => (t ? distinct.indexOf(t) : WHOLE_PAGE)));
  return { documents, bytes, tableOf, released, set: sketchMany(bytes, { ...MAIN, templates }) };
}

for (const [kind, path] of Object.entries({ folder: inputs.folder, jsonl: inputs.jsonl, 'warc.gz': inputs.warc })) {
  test(`${kind}: streamed content sketches equal one sketchMany over the crawl with the learner's tables, for 1, 2 and 3 workers`, async () => {
    const ref = await reference(path);
    assert.ok(ref.tableOf.filter(Boolean).length > ref.bytes.length / 2, 'most pages have a template');
    for (const workers of [1, 2, 3]) {
      const s = await sketchCrawl(path, { sketch: MAIN, workers, batchBytes: 32 << 10 });
      assert.equal(s.urls, ref.documents.map((d) => d.url), 'DocIds are read positions');
      for (const c of columns) assert.equal(Array.from(s.set[c] as ArrayLike<unknown>), Array.from(ref.set[c] as ArrayLike<unknown>), `${kind} ${workers} workers: ${c}`);
      // the crawl's tables say which table each page was sketched against
      const t = s.templates!;
      for (let d = 0; d < ref.bytes.length; d++) {
        const k = t.tables.docTable[d];
        const got = k === WHOLE_PAGE ? undefined : Array.from(t.tables.values.subarray(t.tables.offsets[k], t.tables.offsets[k + 1]));
        assert.equal(got, ref.tableOf[d] && Array.from(ref.tableOf[d]!), `page ${d}'s table`);
      }
      // the sites and tables in the order the learner released their first page (an index keeps its sites in this order)
      const tables: BigUint64Array[] = [], tableSites: string[] = [];
      for (const r of ref.released) if (r.table && !tables.includes(r.table)) { tables.push(r.table); tableSites.push(r.host); }
      assert.equal([...t.bySite.keys()], [...new Set(ref.released.map((r) => r.host))], 'sites in release order');
      assert.equal(t.sites, tableSites, 'tables in release order');
      assert.equal(tables.map((_, k) => Array.from(t.tables.values.subarray(t.tables.offsets[k], t.tables.offsets[k + 1]))), tables.map((x) => Array.from(x)));
      // trusted: the tables with template blocks (a site too small to learn one shares an empty table)
      assert.is(t.stats.trusted, t.sites.filter((_, k) => t.tables.offsets[k + 1] > t.tables.offsets[k]).length);
      assert.ok(t.stats.heldPages > 0 && t.stats.sites > 10, JSON.stringify(t.stats));
    }
  });
}

test('a small bound on held pages settles sites early, the same way as the reference learner', async () => {
  // heavy 0: every template found is removed, so what is learnt shows in the sketches
  const ref = await reference(inputs.jsonl, 64 << 10, 0);
  const s = await sketchCrawl(inputs.jsonl, { sketch: MAIN, workers: 2, batchBytes: 32 << 10, templates: { maxHeldBytes: 64 << 10, heavy: 0 } });
  for (const c of columns) assert.equal(Array.from(s.set[c] as ArrayLike<unknown>), Array.from(ref.set[c] as ArrayLike<unknown>), c);
  const unbounded = await reference(inputs.jsonl, undefined, 0);
  assert.not.equal(Array.from(ref.set.values), Array.from(unbounded.set.values), 'the bound changes what is learnt on this crawl');
});

test('exact checks in content mode compare the content shingle sets of the slow reference', async () => {
  const ref = await reference(inputs.jsonl);
  const s = await sketchCrawl(inputs.jsonl, { sketch: MAIN, workers: 1 });
  const ok = [...Array(ref.bytes.length).keys()].filter((d) => !s.set.tooLittleContent(d)).slice(0, 40);
  const a = Uint32Array.from(ok.slice(0, 20)), b = Uint32Array.from(ok.slice(20, 40));
  // and a near-duplicate pair of different bytes: the candidate pair of highest estimate under 1
  const found = await nearDuplicatesOfCrawl(inputs.jsonl, { sketch: MAIN, workers: 1, exact: false });
  const r = found.nd.pairs.resemblance;
  let best = 0;
  for (let i = 0; i < r.length; i++) if (r[i] < 1 && r[i] > r[best]) best = i;
  const pa = found.nd.pairs.a[best], pb = found.nd.pairs.b[best];
  const pairsA = Uint32Array.of(...a, pa), pairsB = Uint32Array.of(...b, pb);
  const exact = await exactPairs(inputs.jsonl, pairsA, pairsB, { sketch: MAIN, templates: s.templates });
  // a page without a (heavy) template is sketched whole
  const content = (d: number) => new Set(ref.tableOf[d] ? shingleValuesRef(contentTokensRef(ref.bytes[d], new Set(ref.tableOf[d]), 500, 30).join(' '), { markup: 'text' }) : shingleValuesRef(ref.bytes[d]));
  let some = 0;
  for (let i = 0; i < pairsA.length; i++) {
    const x = content(pairsA[i]), y = content(pairsB[i]);
    let shared = 0;
    for (const v of x) if (y.has(v)) shared++;
    assert.ok(Math.abs(exact.resemblance[i] - shared / (x.size + y.size - shared)) < 1e-12, `pair ${pairsA[i]} ${pairsB[i]}: ${exact.resemblance[i]} vs reference`);
    assert.ok(Math.abs(exact.containmentAB[i] - shared / x.size) < 1e-12);
    if (shared > 0) some++;
  }
  assert.ok(exact.resemblance[pairsA.length - 1] > 0.5 && some >= 1, `a real pair is among them (${r[best]}, exact ${exact.resemblance[pairsA.length - 1]})`);
  // and the fast path agrees with intersectionCount over the full sets it builds
  assert.is(intersectionCount(new BigUint64Array([1n, 5n, 9n]), new BigUint64Array([5n, 9n, 11n])), 2);
});

test('content-mode clusters do not depend on the worker count; page mode keeps its sketches', async () => {
  const one = await nearDuplicatesOfCrawl(inputs.folder, { sketch: MAIN, workers: 1 });
  const three = await nearDuplicatesOfCrawl(inputs.folder, { sketch: MAIN, workers: 3 });
  assert.equal(Array.from(three.nd.clusters.clusterOf), Array.from(one.nd.clusters.clusterOf));
  assert.equal(Array.from(three.nd.pairs.resemblance), Array.from(one.nd.pairs.resemblance));
  assert.ok(one.nd.clusters.count >= 30, `${one.nd.clusters.count} clusters`);
  const page = await sketchCrawl(inputs.folder, { workers: 2 });
  assert.is(page.templates, undefined);
  assert.is(page.set.params.content, undefined, 'whole-page parameters as before');
});

test('options that apply to content mode only, or that it cannot honour, are rejected before reading', async () => {
  const code = async (f: () => Promise<unknown>) => { try { await f(); } catch (e) { assert.instance(e, ResembleError); return (e as ResembleError).code; } return 'none'; };
  assert.is(await code(() => sketchCrawl(inputs.jsonl, { templates: { trustAfter: 4 } })), 'E_OPTION');
  assert.is(await code(() => sketchCrawl(inputs.jsonl, { siteOf: (u) => u })), 'E_OPTION');
  assert.is(await code(() => sketchCrawl(inputs.jsonl, { sketch: MAIN, onBatch: () => undefined })), 'E_OPTION');
  assert.is(await code(() => sketchCrawl(inputs.jsonl, { sketch: MAIN, onSketched: () => undefined })), 'E_OPTION');
  assert.is(await code(() => sketchCrawl(inputs.jsonl, { sketch: MAIN, templates: { trustAfter: 2 } })), 'E_OPTION');
});

test('siteOfUrl: host and first directory', () => {
  assert.is(siteOfUrl('http://Docs.Example.com/python/3/index.html'), `${siteOfUrl('http://docs.example.com/python/x')}`);
  assert.is(siteOfUrl('http://a.example/index.html'), 'a.example/');
  assert.not.equal(siteOfUrl('http://a.example/python/x.html'), siteOfUrl('http://a.example/django/x.html'));
  // the pipeline's one parse gives the site and host of the separate functions (the section as split('/') finds it)
  const section = (url: string) => { try { const p = new URL(url).pathname.split('/'); return p.length > 2 ? p[1] : ''; } catch { return ''; } };
  for (const url of ['http://a.example/', 'http://a.example', 'https://A.Example:443/x/y', 'http://a.example:8080/x/', 'http://a.example/x', 'http://a.example//y/z',
    'http://a.example/a/../b/c', 'http://a.example/%7Euser/p', 'http://a.example/a\\b/c', 'http://[::1]/v/w', 'http://0x7f.1/s/t', 'mailto:someone@a.example',
    'urn:isbn:0451450523', 'file:///srv/x/y', 'not a url', '', 'http://a.example/ä/ö?q=/x/y#/f/g', ' http://a.example/t/u ', 'http://user:pw@a.example/s/x']) {
    assert.equal(siteAndHostOfUrl(url), { site: siteOfUrl(url), host: hostOfUrl(url) }, url);
    // a site router starts every page in that site
    assert.equal(new SiteRouter(8).route(url, () => 0n), siteAndHostOfUrl(url), url);
    assert.is(sectionOfUrl(url), section(url), url);
  }
});

test.after(cleanup);
test.run();
