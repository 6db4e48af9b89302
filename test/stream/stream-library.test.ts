// The library's streaming entry points for the study, signatures and mirrors equal the in-memory
// functions over the loaded crawl, column for column, for 1, 2 and 3 workers and small batches (so
// the page pool runs), on the sample folder, its JSONL and a crawl with repeated URLs.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, sketchMany } from '../../src/index.js';
import { utf8Bytes, type Document } from '../../src/graph/document.js';
import { hostOfUrl } from '../../src/graph/url.js';
import { loadCrawl } from '../../src/io/crawl.js';
import { crawlContentSource, hostContentFromDocuments, hostContentFromSketches, sketchedContent, sketchSimilarity } from '../../src/mirrors/content.js';
import { HostSet } from '../../src/mirrors/host-set.js';
import { mirroringTest } from '../../src/mirrors/mirroring-test.js';
import { mirrorInputFromDocuments } from '../../src/mirrors/crawl-input.js';
import { readForMirrors } from '../../src/mirrors/stream.js';
import { learnTemplatesFromSpill, readForSignatures, signaturesStream } from '../../src/signatures/stream.js';
import { readForStudy, studyStream } from '../../src/study/stream.js';
import { streamPages } from '../../src/stream/page-stream.js';
import { FINGERPRINTS, resultOf, work } from '../../src/stream/page-jobs.js';
import { crawlBags, crawlShingleSets, signaturesOfCrawl } from '../../src/signatures/crawl-signatures.js';
import { paragraphColumns } from '../../src/study/columns.js';
import { studyCrawl } from '../../src/study/crawl-study.js';
import { pageText } from '../../src/study/page-text.js';
import { paragraphParams } from '../../src/study/paragraphs.js';
import { fingerprintMany } from '../../src/sketch/rabin.js';
import { tokenFingerprints } from '../../src/sketch/tokens.js';
import { learnTemplates } from '../../src/template/learn.js';
import { sectionOfUrl } from '../../src/template/sketch.js';
import { tempDir } from '../io/fixtures.js';
import { writeInputs } from './fixtures.js';

await init();
const { dir, cleanup } = tempDir();
const inputs = await writeInputs(dir);
// Repeated URLs: a later record at a URL already read (other content), and an empty page.
const dec = new TextDecoder();
const repeated = join(dir, 'repeated.jsonl');
const lines = inputs.docs.map((d) => JSON.stringify({ url: d.url, html: dec.decode(d.utf8 ?? d.bytes) }));
const moved = inputs.docs.slice(0, 30).map((d, i) => JSON.stringify({ url: d.url, html: dec.decode(inputs.docs[(i + 50) % inputs.docs.length].utf8 ?? inputs.docs[(i + 50) % inputs.docs.length].bytes) }));
writeFileSync(repeated, [JSON.stringify({ url: inputs.docs[5].url, text: '' }), ...lines.slice(0, 100), ...moved, ...lines.slice(100)].join('\n') + '\n');

const SMALL = 48 << 10;
const CASES = { folder: inputs.folder, jsonl: inputs.jsonl, repeated } as const;
const arr = (x: ArrayLike<unknown>) => Array.from(x);

async function loaded(path: string) {
  const crawl = await loadCrawl(path);
  assert.ok(crawl.documents.length > 100, `${crawl.documents.length} documents`);
  return crawl;
}

test('streamPages: the columns of the loaded crawl, batches in input order; the spill file holds every page', async () => {
  const { documents } = await loaded(inputs.jsonl);
  const s = await streamPages(inputs.jsonl, { workers: 2, batchBytes: SMALL, job: [work(FINGERPRINTS, true)], read: { links: true }, keepIps: true, spillDir: join(dir, 'spill') });
  try {
    assert.is(s.workers, 2);
    assert.ok(s.results.length > 5, `${s.results.length} batches`);
    assert.equal(s.urls, documents.map((d) => d.url));
    assert.equal(s.links, documents.map((d) => d.links));
    assert.equal(arr(s.utf8Sizes), documents.map((d) => utf8Bytes(d).length));
    assert.equal(s.starts, s.results.map((_, b) => s.results.slice(0, b).reduce((a, r) => a + r.n, 0)));
    assert.equal(s.results.flatMap((r) => arr(resultOf(r, FINGERPRINTS)!)), arr(fingerprintMany(documents.map(utf8Bytes))));
    const { readSpilled } = await import('../../src/stream/spill.js');
    const ids = [7, 8, 9, 3, 120, 0];
    assert.equal(readSpilled(s.spill!, ids).map((b) => dec.decode(b)), ids.map((d) => dec.decode(utf8Bytes(documents[d]))));
  } finally {
    s.spill?.remove();
  }
  assert.equal(readdirSync(join(dir, 'spill')), [], 'remove() leaves nothing');
});

for (const [kind, path] of Object.entries(CASES)) {
  test(`study (${kind}): readForStudy and studyStream equal paragraphColumns and studyCrawl over the loaded crawl`, async () => {
    const crawl = await loaded(path);
    const opts = { minChars: 300, sentencesPerParagraph: 2 };
    const cols = paragraphColumns(crawl.documents.map(pageText), paragraphParams(opts), fingerprintMany);
    const report = studyCrawl(crawl.documents, crawl.graph, { ...opts, near: [80, 50], parts: 2 });
    assert.ok(report.general.clusters > 3, `${report.general.clusters} clusters`);
    for (const workers of [1, 2, 3]) {
      const r = await readForStudy(path, opts, { workers, batchBytes: SMALL });
      assert.is(r.stream.workers, workers);
      assert.equal(arr(r.columns.docIds), arr(cols.docIds));
      assert.equal(arr(r.columns.offsets), arr(cols.offsets));
      assert.equal(arr(r.columns.fps), arr(cols.fps));
      assert.equal(r.graph.urls, crawl.graph.urls);
      assert.equal(arr(r.graph.linkTargets), arr(crawl.graph.linkTargets));
      const s = await studyStream(path, { ...opts, near: [80, 50], parts: 2, workers, batchBytes: SMALL });
      assert.equal(s.report, report);
    }
  });

  test(`signatures (${kind}): readForSignatures equals crawlBags, learnTemplates and crawlShingleSets, content and page mode`, async () => {
    const crawl = await loaded(path);
    const sets = crawlShingleSets(crawl.documents);
    const html = crawl.documents.filter((d) => d.contentType === undefined || d.contentType === 'text/html' || d.contentType === 'application/xhtml+xml');
    for (const content of ['main', 'page'] as const) {
      // A small sample (4, trusted after 3) so that samples end early and skip repeated pages.
      const templates = content === 'main' ? { sample: 4, trustAfter: 3 } : undefined;
      const bags = crawlBags(crawl.documents, { content, templates });
      // learnTemplates counts block tokens as the kernels were last configured (crawlBags read plain-text pages last): the defaults, as in a fresh process.
      tokenFingerprints(new Uint8Array(0));
      const learnt = content === 'main' ? learnTemplates(html.map(utf8Bytes), html.map((d) => hostOfUrl(d.url)), templates, html.map((d) => sectionOfUrl(d.url))) : undefined;
      if (learnt) assert.ok(learnt.stats.trusted > 3 && learnt.stats.heavy > 0, JSON.stringify(learnt.stats));
      for (const workers of [1, 2, 3]) {
        const spillDir = join(dir, `spill-${kind}-${content}-${workers}`);
        const r = await readForSignatures(path, { content, templates, shingleSets: true, workers, batchBytes: SMALL, spillDir });
        assert.is(r.stream.workers, workers);
        for (const c of ['offsets', 'terms', 'counts', 'norms'] as const) assert.equal(arr(r.bags[c]), arr(bags[c]), `${content} ${workers}: ${c}`);
        assert.equal(arr(r.sets!.offsets), arr(sets.offsets));
        assert.equal(arr(r.sets!.ids), arr(sets.ids));
        assert.equal(r.templates, learnt);
        if (content === 'main') assert.equal(readdirSync(spillDir), [], 'the spill file is removed');
        else assert.not.ok(existsSync(spillDir), 'page mode writes no spill file');
      }
    }
    const old = signaturesOfCrawl(crawl.documents, crawl.graph, { k: 16 }, { content: 'main' });
    const s = await signaturesStream(path, { k: 16 }, { content: 'main', workers: 2, batchBytes: SMALL });
    assert.equal(arr(s.signatures.rp), arr(old.signatures.rp));
    assert.equal(arr(s.signatures.hm), arr(old.signatures.hm));
  });

  // the stream as read (phenomena: false): the web phenomena are checked against the reference command (stream-commands.test.ts)
  test(`mirrors (${kind}): sketches, host content and mirroring-test verdicts from the stream equal those from the loaded crawl`, async () => {
    const crawl = await loaded(path);
    const docs = crawl.documents;
    const input = mirrorInputFromDocuments(docs);
    const hosts = HostSet.fromUrls(input.urls, { ips: input.ips, locations: input.locations });
    assert.ok(hosts.size >= 3, `${hosts.size} hosts`);
    const old = hostContentFromDocuments(hosts, docs);
    const source = crawlContentSource(docs);
    for (const workers of [1, 2, 3]) {
      const r = await readForMirrors(path, { sketch: {}, workers, batchBytes: SMALL, phenomena: false });
      assert.is(r.stream.workers, workers);
      const all = sketchMany(docs.map(utf8Bytes));
      for (const c of ['values', 'offsets', 'lexicalFp'] as const) assert.equal(arr(r.set![c]), arr(all[c]));
      assert.equal(mirrorInputFromDocuments(r.pages), input);
      const now = hostContentFromSketches(hosts, r.stream.urls, r.stream.utf8Sizes, r.set!);
      for (const h of hosts.hosts) {
        const a = old.pages(h), b = now.pages(h);
        assert.equal(b?.paths, a?.paths, h);
        assert.equal(arr(b?.keys ?? []), arr(a?.keys ?? []), h);
        assert.equal(b?.sketches.map((s) => arr(s.values)), a?.sketches.map((s) => arr(s.values)), h);
      }
      const sk = sketchedContent(r.stream.urls, r.stream.utf8Sizes, r.set!);
      let mirrors = 0;
      for (let a = 0; a < hosts.size; a++) {
        for (let b = a + 1; b < hosts.size; b++) {
          const want = await mirroringTest(hosts, a, b, source);
          assert.equal(await mirroringTest(hosts, a, b, sk.source, { similarity: sk.similarity }), want, `${hosts.hosts[a]} ${hosts.hosts[b]}`);
          if (want.verdict === 'mirror') mirrors++;
        }
      }
      assert.ok(mirrors > 0, 'some pair mirrors');
      // The stand-ins answer as the pages do, and unknown pages stay unknown.
      const sim = sketchSimilarity();
      for (const [x, y] of [[1, 2], [3, 40], [10, 11]]) {
        const pa = source(docs[x].url), pb = source(docs[y].url);
        if (!(pa instanceof Uint8Array) || !(pb instanceof Uint8Array)) continue;
        const got = sk.similarity(sk.source(docs[x].url) as Uint8Array, sk.source(docs[y].url) as Uint8Array);
        assert.ok(Object.is(got, sim(pa, pb)), `${x} ${y}`);
      }
      assert.is(sk.source('http://nowhere.example/x.html'), undefined);
    }
  });
}

test('learnTemplatesFromSpill equals learnTemplates with every sample size, whatever the kernels did before', async () => {
  const { documents } = await loaded(inputs.folder);
  const s = await streamPages(inputs.folder, { workers: 1, job: [work(FINGERPRINTS, true)], spillDir: join(dir, 'spill-learn') });
  try {
    const docs: Document[] = documents.filter((d) => d.contentType === undefined || d.contentType === 'text/html');
    const ids = Uint32Array.from(docs, (d) => documents.indexOf(d));
    const all = s.results.flatMap((r) => Array.from(resultOf(r, FINGERPRINTS)!));
    const fps = BigUint64Array.from(ids, (d) => all[d]);
    const hostsOf = docs.map((d) => hostOfUrl(d.url)), sections = docs.map((d) => sectionOfUrl(d.url));
    for (const options of [{}, { sample: 3, trustAfter: 3 }, { sample: 9, trustAfter: 5, share: 0.3 }, { sample: 40, heavy: 0 }]) {
      tokenFingerprints(new Uint8Array(0));
      const want = learnTemplates(docs.map(utf8Bytes), hostsOf, options, sections);
      tokenFingerprints(utf8Bytes(documents[0]), { markup: 'text' });
      assert.equal(learnTemplatesFromSpill(s.spill!, ids, fps, hostsOf, sections, options), want, JSON.stringify(options));
    }
  } finally {
    s.spill?.remove();
  }
});

test.after(cleanup);
test.run();
