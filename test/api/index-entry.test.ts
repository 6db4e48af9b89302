// `buildIndex` and `queryIndex` give what `resemble index` and `resemble query` give, byte for
// byte: the CLI is run as a subprocess on the bundled sample, and its index file, its records and
// its summary line compared with the entry points'. Clusters are numbered one way everywhere: as
// `resemble dups` numbers them on the same input.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init, ResembleError, ResembleIndex } from '../../src/index.js';
import { buildIndex, findNearDuplicates, queryIndex, readCrawl, type Page } from '../../src/node.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SAMPLE = join(ROOT, 'sample');
const BLOG = join(SAMPLE, 'blog.example.com');
const BIN = join(ROOT, 'bin', 'resemble.js');
const DIR = mkdtempSync(join(tmpdir(), 'resemble-index-entry-'));
const WHEN = 'http://sqlite.example.org/whentouse.html';
const BLOG_PAGE = join(BLOG, '2023/03/appropriate-uses-for-sqlite.html');
const BLOG_URL = 'http://blog.example.com/2023/03/appropriate-uses-for-sqlite.html';

/** Runs `resemble ARGS --quiet`; returns its standard output's lines. */
function cli(...args: string[]): string[] {
  const out = execFileSync(process.execPath, [BIN, ...args, '--quiet'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28 });
  return out.split('\n').filter((l) => l !== '');
}

const lines = (records: readonly unknown[]) => records.map((r) => JSON.stringify(r));
const file = (name: string) => join(DIR, name);
const bytesOf = (path: string) => new Uint8Array(readFileSync(path));
const summaryLine = (path: string, s: { documents: number; live: number; clusters: number }, bytes: number) => JSON.stringify({ index: path, documents: s.documents, live: s.live, clusters: s.clusters, bytes });

async function code(p: Promise<unknown>, expected: string, message?: RegExp): Promise<void> {
  try {
    await p;
  } catch (e) {
    assert.instance(e, ResembleError);
    assert.is((e as ResembleError).code, expected, (e as Error).message);
    if (message) assert.match((e as Error).message, message);
    return;
  }
  assert.unreachable(`expected ${expected}`);
}

test.before(async () => { await init(); });
test.after(() => rmSync(DIR, { recursive: true, force: true }));

test('buildIndex: the file of resemble index build, byte for byte; records are the lines of index clusters, summary its line', async () => {
  const [line] = cli('index', 'build', file('cli.rsx'), SAMPLE);
  const built = await buildIndex(SAMPLE);
  const bytes = built.index.save();
  assert.equal(bytes, bytesOf(file('cli.rsx')), 'the same index file');
  assert.is(summaryLine(file('cli.rsx'), built.summary, bytes.length), line);
  const clusters = cli('index', 'clusters', file('cli.rsx'));
  assert.ok(clusters.length > 10, 'the sample has clusters');
  assert.equal(lines(built.records), clusters);
  assert.is(built.summary.clusters, clusters.length);
  assert.is(built.summary.pages, 388);
  assert.is(built.summary.added.count, 388);
  assert.ok(built.summary.content !== undefined, 'content mode is the default');
});

test('buildIndex: the flags and the options give the same file; workers and input forms do not change it', async () => {
  cli('index', 'build', file('page.rsx'), SAMPLE, '--content', 'page', '--threshold', '0.4', '--w', '6');
  const expected = bytesOf(file('page.rsx'));
  const one = await buildIndex(SAMPLE, { sketch: { content: 'page', w: 6 }, threshold: 0.4, workers: 1 });
  assert.equal(one.index.save(), expected);
  assert.equal((await buildIndex(SAMPLE, { sketch: { content: 'page', w: 6 }, threshold: 0.4, workers: 3, batchBytes: 64 << 10 })).index.save(), expected);
  const pages: Page[] = [];
  for await (const d of readCrawl(SAMPLE)) pages.push({ url: d.url, bytes: d.bytes, ...(d.contentType ? { contentType: d.contentType } : {}), ...(d.date ? { date: d.date } : {}) });
  const fromPages = await buildIndex(pages, { sketch: { content: 'page', w: 6 }, threshold: 0.4 });
  assert.equal(lines(fromPages.records), lines(one.records), 'the same clusters from pages in memory');
});

test('buildIndex with an index: the file of resemble index add, and its line', async () => {
  cli('index', 'build', file('add.rsx'), SAMPLE);
  const index = ResembleIndex.load(bytesOf(file('add.rsx')));
  const [line] = cli('index', 'add', file('add.rsx'), BLOG);
  const added = await buildIndex(BLOG, { index });
  assert.is(added.index, index, 'the index given is the one added to');
  const bytes = index.save();
  assert.equal(bytes, bytesOf(file('add.rsx')));
  const r = added.summary.added;
  assert.is(JSON.stringify({ ...JSON.parse(summaryLine(file('add.rsx'), added.summary, bytes.length)), added: r.count, identical: r.identical, lexical: r.lexical, shingle: r.shingle, joins: r.joins }), line);
  assert.ok(r.identical > 0, 'pages indexed before short-cut as copies');
});

test('buildIndex: engine duckdb gives the same file', async () => {
  const memory = await buildIndex(SAMPLE, { sketch: { content: 'page' } });
  const duck = await buildIndex(SAMPLE, { sketch: { content: 'page' }, engine: 'duckdb', engineOptions: { memoryLimit: '256MB' } });
  assert.equal(duck.index.save(), memory.index.save());
});

test('queryIndex: records are the lines of resemble query, for URLs in the index, files and --cluster', async () => {
  const path = file('q.rsx');
  cli('index', 'build', path, SAMPLE);
  const expected = cli('query', '--index', path, WHEN, BLOG_PAGE);
  const found = await queryIndex(path, { queries: [WHEN, BLOG_PAGE] });
  assert.ok(expected.length >= 8);
  assert.equal(lines(found.records), expected);
  assert.equal(found.summary.answered, 2);
  const index = ResembleIndex.load(bytesOf(path));
  assert.equal(lines((await queryIndex(index, { queries: [WHEN, BLOG_PAGE] })).records), expected, 'an index in memory answers as its file');
  assert.equal(lines((await queryIndex(path, WHEN, { threshold: 0.95, limit: 2 })).records), cli('query', '--index', path, WHEN, '--threshold', '0.95', '--limit', '2'));
  assert.equal(lines((await queryIndex(path, BLOG_PAGE, { url: BLOG_URL })).records), cli('query', '--index', path, BLOG_PAGE, '--url', BLOG_URL));
  assert.equal(lines((await queryIndex(path, { queries: [WHEN, BLOG_URL] }, { cluster: true })).records), cli('query', '--index', path, '--cluster', WHEN, BLOG_URL));
});

test('queryIndex: pages in memory are queries named by their URL, sketched against their site\'s template as the file with --url', async () => {
  const path = file('q.rsx');
  const byFile = await queryIndex(path, BLOG_PAGE, { url: BLOG_URL });
  const page: Page = { url: BLOG_URL, bytes: new Uint8Array(readFileSync(BLOG_PAGE)), contentType: 'text/html' };
  const byPage = await queryIndex(path, [page]);
  assert.ok(byPage.records.length > 1);
  assert.equal(byPage.records.map((r) => ({ ...r, query: BLOG_PAGE })), byFile.records);
  assert.ok(byPage.records.every((r) => r.query === BLOG_URL));
});

test('queryIndex: the pages of a crawl are sketched on the worker pool, with the records of one thread', async () => {
  const path = file('q.rsx');
  const one = await queryIndex(path, { paths: [SAMPLE] }, { workers: 1 });
  assert.is(one.summary.workers, 1);
  assert.ok(one.summary.queries > 64, 'more than one batch of queries');
  assert.ok(one.records.length > one.summary.queries, 'pages of the index find themselves and their copies');
  for (const workers of [2, 3]) {
    const many = await queryIndex(path, { paths: [SAMPLE] }, { workers });
    assert.is(many.summary.workers, workers, 'the pool sketched them');
    assert.equal(lines(many.records), lines(one.records), `${workers} workers`);
    assert.equal({ ...many.summary, seconds: 0, workers: 1 }, { ...one.summary, seconds: 0 });
  }
  // pages in memory, in one batch under 64: the same
  const pages: Page[] = [];
  for await (const d of readCrawl(BLOG, { links: false })) pages.push({ url: d.url, bytes: d.bytes, contentType: d.contentType });
  assert.equal(lines((await queryIndex(path, pages, { workers: 3 })).records), lines((await queryIndex(path, pages, { workers: 1 })).records));
});

test('one numbering: index clusters, query hits and query --cluster number clusters as dups does', async () => {
  const dups = (await findNearDuplicates(SAMPLE)).records;
  const built = await buildIndex(SAMPLE);
  assert.is(built.records.length, dups.length);
  for (const [i, r] of built.records.entries()) {
    assert.is(r.cluster, i);
    assert.is(dups[i].cluster, i);
    assert.equal([...r.urls].sort(), dups[i].members.map((m) => m.url).sort(), `cluster ${i}`);
  }
  const hits = (await queryIndex(built.index, WHEN)).records as { url: string; cluster: number }[];
  const numberOf = new Map(dups.flatMap((c) => c.members.map((m) => [m.url, c.cluster] as const)));
  assert.ok(hits.length >= 4);
  for (const h of hits) assert.is(h.cluster, numberOf.get(h.url), h.url);
  const [lost] = (await queryIndex(built.index, WHEN, { cluster: true })).records as { cluster: number }[];
  assert.is(lost.cluster, numberOf.get(WHEN));
  assert.is(built.index.clusterOf(WHEN), numberOf.get(WHEN));
});

test('bad input: a wrong option is a coded error before any work; an unanswerable query is reported and skipped', async () => {
  await code(buildIndex(SAMPLE, { threshold: 2 }), 'E_OPTION', /threshold/);
  await code(buildIndex(SAMPLE, { nope: 1 } as never), 'E_OPTION', /nope/);
  await code(buildIndex(SAMPLE, { index: new ResembleIndex(), sketch: { w: 4 } }), 'E_OPTION', /stored in it/);
  await code(buildIndex(SAMPLE, { sketch: { content: 'page' }, templates: {} }), 'E_OPTION', /templates/);
  await code(buildIndex(SAMPLE, { engineOptions: {} }), 'E_OPTION', /engine/);
  const path = file('q.rsx');
  await code(queryIndex(path, WHEN, { workers: 0 }), 'E_OPTION', /workers/);
  await code(queryIndex(path, WHEN, { cluster: true, limit: 3 }), 'E_OPTION', /cluster/);
  await code(queryIndex(path, WHEN, { content: 'page' }), 'E_PARAMS', /content main/);
  await code(queryIndex(file('missing.rsx'), WHEN), 'E_IO', /missing/);
  const errors: string[] = [];
  const found = await queryIndex(path, { queries: ['http://nowhere.example/', WHEN] }, { onError: (e) => errors.push(`${e.source}: ${e.message}`) });
  assert.equal(errors, ['http://nowhere.example/: neither a URL in the index nor a readable file']);
  assert.is(found.summary.errors, 1);
  assert.equal(lines(found.records), lines((await queryIndex(path, WHEN)).records), 'the other query is answered');
  await code(queryIndex(path, { queries: ['http://nowhere.example/'] }), 'E_INPUT', /no query could be answered/);
});

test('an abort stops buildIndex and queryIndex with E_ABORTED', async () => {
  const stop = new AbortController();
  await code(buildIndex(SAMPLE, { workers: 2, batchBytes: 64 << 10, signal: stop.signal, onProgress: () => stop.abort() }), 'E_ABORTED');
  const again = new AbortController();
  await code(queryIndex(file('q.rsx'), { queries: [WHEN, BLOG_PAGE] }, { signal: again.signal, onProgress: () => again.abort() }), 'E_ABORTED');
  await code(queryIndex(file('q.rsx'), WHEN, { signal: AbortSignal.abort() }), 'E_ABORTED');
});

test.run();
