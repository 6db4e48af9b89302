// Each capability's entry point gives the records its command prints, byte for byte: the CLI is
// run as a subprocess on the bundled sample and its JSON lines compared with JSON.stringify of the
// entry point's records. The records do not depend on the worker count, nor on whether the input
// is a path, an array of pages or an async iterable of them; and on the realistic slice (a committed
// slice of the realistic crawl) with the defaults.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { init, ResembleError } from '../../src/index.js';
import { dedup, findCollections, findMirrors, findNearDuplicates, findSignatureCollisions, readCrawl, sketchCrawl, studyDuplicates, type Page } from '../../src/node.js';
import { parseHostsFile, studyMarkdown } from '../../src/advanced.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SAMPLE = join(ROOT, 'sample');
const BIN = join(ROOT, 'bin', 'resemble.js');

/** Runs `resemble ARGS --quiet`; returns its standard output's lines. */
function cli(...args: string[]): string[] {
  const out = execFileSync(process.execPath, [BIN, ...args, '--quiet'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28 });
  return out.split('\n').filter((l) => l !== '');
}

const lines = (records: readonly unknown[]) => records.map((r) => JSON.stringify(r));

/** The sample's pages as the readers yield them, handed over as `{ url, bytes, contentType, links }` (a wget folder's links to index.html name the folder). */
async function samplePages(): Promise<Page[]> {
  const pages: Page[] = [];
  for await (const d of readCrawl(SAMPLE)) pages.push({ url: d.url, bytes: d.bytes, ...(d.contentType ? { contentType: d.contentType } : {}), ...(d.date ? { date: d.date } : {}), ...(d.links ? { links: d.links } : {}) });
  return pages;
}

async function* oneByOne<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const x of items) yield x;
}

test.before(async () => { await init(); });

test('findNearDuplicates: records are the lines of resemble dups, summary its counts', async () => {
  const expected = cli('dups', SAMPLE);
  const found = await findNearDuplicates(SAMPLE);
  assert.ok(expected.length > 10, 'the sample has near-duplicate clusters');
  assert.equal(lines(found.records), expected);
  assert.is(found.summary.clusters, expected.length);
  assert.is(found.summary.pages, 388);
  assert.ok(found.summary.exactPairs > 0, 'pairs near the threshold were checked exactly (the default)');
  assert.is(found.summary.content?.templates !== undefined, true, 'content mode is the default');
});

test('findNearDuplicates: the flags and the options give the same records', async () => {
  const expected = cli('dups', SAMPLE, '--threshold', '0.7', '--content', 'page', '--representative', 'newest');
  const found = await findNearDuplicates(SAMPLE, { threshold: 0.7, sketch: { content: 'page' }, representative: 'newest' });
  assert.equal(lines(found.records), expected);
});

test('findNearDuplicates: workers 1 and 3 give the same records', async () => {
  const one = await findNearDuplicates(SAMPLE, { workers: 1, batchBytes: 64 << 10 });
  const three = await findNearDuplicates(SAMPLE, { workers: 3, batchBytes: 64 << 10 });
  assert.is(three.summary.workers, 3);
  assert.equal(lines(three.records), lines(one.records));
});

test('findNearDuplicates: a path, an array of pages, an async iterable and a stream give the same records', async () => {
  const pages = await samplePages();
  const fromPath = lines((await findNearDuplicates(SAMPLE)).records);
  const fromArray = await findNearDuplicates(pages);
  assert.equal(lines(fromArray.records), fromPath);
  assert.equal(lines((await findNearDuplicates(oneByOne(pages), { workers: 3, batchBytes: 64 << 10 })).records), fromPath);
  // a stream of JSONL: pages as {url, html}
  const jsonl = pages.map((p) => JSON.stringify({ url: p.url, text: new TextDecoder().decode(p.bytes) })).join('\n') + '\n';
  const fromStream = await findNearDuplicates(Readable.from([Buffer.from(jsonl)]));
  const fromTexts = await findNearDuplicates(oneByOne(pages.map((p) => ({ url: p.url, text: new TextDecoder().decode(p.bytes) }))));
  assert.equal(lines(fromStream.records), lines(fromTexts.records));
  assert.ok(fromStream.records.length > 0);
});

test('findNearDuplicates: strings and bytes are pages of their own (URLs id:0, id:1…)', async () => {
  const words = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
  const found = await findNearDuplicates([words, words + ' extra', 'something else entirely', new TextEncoder().encode(words)], { sketch: { content: 'page' } });
  assert.is(found.records.length, 1);
  assert.equal(found.records[0].members.map((m) => m.url), ['id:0', 'id:1', 'id:3']);
});

test('findNearDuplicates: a broken page goes to onError with its place, the others are clustered', async () => {
  const pages = await samplePages();
  const broken: unknown[] = [...pages.slice(0, 5), { url: 7 }, 42, ...pages.slice(5)];
  const errors: { location: string; code: string }[] = [];
  const found = await findNearDuplicates(broken as Page[], { onError: (e) => errors.push(e) });
  assert.equal(errors.map((e) => e.location), ['page 5', 'page 6']);
  assert.is(found.summary.errors, 2);
  assert.is(found.summary.pages, pages.length);
  assert.equal(lines(found.records), lines((await findNearDuplicates(pages)).records));
});

test('findNearDuplicates: a wrong option or input is a coded error before any work', async () => {
  let read = 0;
  const counting = { async *[Symbol.asyncIterator]() { read++; yield 'x'; } };
  for (const options of [{ threshold: 2 }, { method: 'magic' }, { k: 64 }, { thresold: 0.5 }, { verify: false, exactBand: 2 }, { signal: 'stop' }, { onProgress: 3 }] as object[]) {
    try {
      await findNearDuplicates(counting as AsyncIterable<string>, options);
      assert.unreachable(`accepted ${JSON.stringify(options)}`);
    } catch (e) {
      assert.instance(e, ResembleError);
      assert.is((e as ResembleError).code, 'E_OPTION', JSON.stringify(options));
    }
  }
  assert.is(read, 0, 'nothing was read');
  for (const input of [42, null, '', { paths: [] }]) {
    try {
      await findNearDuplicates(input as string);
      assert.unreachable();
    } catch (e) {
      assert.is((e as ResembleError).code, 'E_OPTION');
    }
  }
});

test('findNearDuplicates: an aborted run rejects with E_ABORTED and leaves no temporary file', async () => {
  // a temp folder of its own: other runs on the machine make and remove theirs meanwhile
  const saved = process.env.TMPDIR, own = mkdtempSync(join(tmpdir(), 'entry-abort-'));
  process.env.TMPDIR = own;
  const controller = new AbortController();
  let events = 0;
  try {
    await findNearDuplicates(Readable.from([readFileSync(join(ROOT, 'test', 'api', 'entry-points.test.ts'))]), {
      workers: 2, batchBytes: 1024, signal: controller.signal,
      onProgress: () => { if (++events === 2) controller.abort(); },
    });
    assert.unreachable('not aborted');
  } catch (e) {
    assert.is((e as ResembleError).code, 'E_ABORTED');
  }
  const pages = await samplePages();
  const c2 = new AbortController();
  const run = findNearDuplicates(oneByOne(pages), { workers: 2, batchBytes: 64 << 10, signal: c2.signal, onProgress: (e) => { if (e.stage === 'sketching' && e.progress.read > 100) c2.abort(); } });
  try {
    await run;
    assert.unreachable('not aborted');
  } catch (e) {
    assert.is((e as ResembleError).code, 'E_ABORTED');
  }
  assert.equal(readdirSync(own).filter((f) => f.startsWith('resemble-')), [], 'temporary files removed');
  if (saved === undefined) delete process.env.TMPDIR; else process.env.TMPDIR = saved;
  rmSync(own, { recursive: true, force: true });
  const aborted = new AbortController();
  aborted.abort();
  try {
    await findNearDuplicates(SAMPLE, { signal: aborted.signal });
    assert.unreachable();
  } catch (e) {
    assert.is((e as ResembleError).code, 'E_ABORTED');
  }
});

test('dedup: records are the lines of resemble dedup, dropped its drop list', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'entry-test-'));
  try {
    const drops = join(dir, 'drops.jsonl');
    const expected = cli('dedup', SAMPLE, '--drop-list', drops);
    const done = await dedup(SAMPLE);
    assert.equal(lines(done.records), expected);
    assert.equal(lines(done.dropped), readFileSync(drops, 'utf8').split('\n').filter(Boolean));
    assert.is(done.summary.kept, expected.length);
    assert.is(done.summary.kept + done.summary.dropped, done.summary.pages);
    const longest = cli('dedup', SAMPLE, '--keep', 'longest');
    assert.equal(lines((await dedup(SAMPLE, { keep: 'longest', workers: 3, batchBytes: 64 << 10 })).records), longest);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('dedup: an array of pages and an async iterable give the same records', async () => {
  const pages = (await samplePages()).map((p) => ({ url: p.url, text: new TextDecoder().decode(p.bytes) }));
  const a = await dedup(pages);
  const b = await dedup(oneByOne(pages));
  assert.ok(a.summary.dropped > 0);
  assert.equal(lines(b.records), lines(a.records));
  assert.equal(lines(b.dropped), lines(a.dropped));
  assert.equal(a.records[0], pages[0]);
});

test('sketchCrawl: records are the lines of resemble sketch, for any worker count and input form', async () => {
  const expected = cli('sketch', SAMPLE);
  const done = await sketchCrawl(SAMPLE);
  assert.is(done.records.length, 388);
  assert.equal(lines(done.records), expected);
  assert.equal(lines((await sketchCrawl(SAMPLE, { workers: 3, batchBytes: 64 << 10 })).records), expected);
  const pages = await samplePages();
  assert.equal(lines((await sketchCrawl(pages)).records), expected);
  assert.equal(lines((await sketchCrawl(oneByOne(pages), { workers: 3, batchBytes: 64 << 10 })).records), expected);
  const main = cli('sketch', SAMPLE, '--content', 'main', '--w', '5');
  const content = await sketchCrawl(SAMPLE, { sketch: { content: 'main', w: 5 }, workers: 3, batchBytes: 64 << 10 });
  assert.equal(lines(content.records), main);
  assert.not.equal(main, expected);
  const noValues = await sketchCrawl(SAMPLE, { values: false, keepSet: true });
  assert.is(noValues.set?.size, 388);
  assert.is(noValues.records[0].values, undefined);
});

test('findCollections: records are the lines of resemble collections, in each of its reports', async () => {
  const clusters = cli('collections', SAMPLE);
  const found = await findCollections(SAMPLE);
  assert.ok(clusters.length > 0);
  assert.equal(lines(found.records), clusters);
  assert.is(found.summary.clusters, clusters.length);
  assert.equal(lines((await findCollections(SAMPLE, { report: 'replicas', workers: 3 })).records), cli('collections', SAMPLE, '--replicas'));
  const avoid = await findCollections(SAMPLE, { report: 'avoid', keep: 'first' });
  assert.equal(lines(avoid.records), cli('collections', SAMPLE, '--avoid', '--keep', 'first'));
  assert.ok(avoid.summary.avoid!.entries === avoid.records.length);
  assert.equal(lines((await findCollections(SAMPLE, { report: 'break-points', similarity: 'sketch:0.9' })).records), cli('collections', SAMPLE, '--break-points', '--similarity', 'sketch:0.9'));
  assert.equal(lines((await findCollections(await samplePages(), { workers: 3 })).records), clusters);
});

test('findMirrors: records are the lines of resemble mirrors (hybrid, verified), for any input form', async () => {
  const expected = cli('mirrors', SAMPLE);
  const found = await findMirrors(SAMPLE);
  assert.ok(expected.length > 0);
  assert.equal(lines(found.records), expected);
  assert.is(found.summary.algorithm, 'hybrid');
  assert.ok(found.summary.verdicts!.mirror > 0, 'the mirroring test ran (the default)');
  const pages = await samplePages();
  assert.equal(lines((await findMirrors(oneByOne(pages), { workers: 3 })).records), expected);
  const hosts = parseHostsFile(readFileSync(join(SAMPLE, 'hosts.txt'), 'utf8'), 'hosts.txt');
  assert.equal(lines((await findMirrors(SAMPLE, { hosts, algorithm: 'combined', verify: false, top: 5 })).records),
    cli('mirrors', SAMPLE, '--ips', join(SAMPLE, 'hosts.txt'), '--algorithm', 'combined', '--no-verify', '--top', '5'));
});

test('findSignatureCollisions: records are the lines of resemble signatures', async () => {
  const expected = cli('signatures', SAMPLE);
  const found = await findSignatureCollisions(SAMPLE);
  assert.ok(found.summary.pairs > 0);
  assert.equal(lines(found.records), expected);
  assert.equal(lines((await findSignatureCollisions(await samplePages(), { workers: 3 })).records), expected);
  assert.equal(lines((await findSignatureCollisions(SAMPLE, { records: ['groups'], content: 'page', k: 16 })).records),
    cli('signatures', SAMPLE, '--records', 'groups', '--content', 'page', '--k', '16'));
  assert.equal(lines((await findSignatureCollisions(SAMPLE, { evaluate: true })).records), cli('signatures', SAMPLE, '--evaluate'));
});

test('studyDuplicates: its record is the line of resemble study --format jsonl, its report the markdown', async () => {
  const expected = cli('study', SAMPLE, '--format', 'jsonl', '--near', '90,50', '--parts', '3');
  const found = await studyDuplicates(SAMPLE, { near: [90, 50], parts: 3 });
  assert.equal(lines(found.records), expected);
  assert.ok(found.summary.clusters > 0);
  assert.is(studyMarkdown(found.report), execFileSync(process.execPath, [BIN, 'study', SAMPLE, '--near', '90,50', '--parts', '3', '--quiet'], { cwd: ROOT, encoding: 'utf8' }));
  assert.equal(lines((await studyDuplicates(oneByOne(await samplePages()), { near: [90, 50], parts: 3, workers: 3 })).records), expected);
});

test('on the realistic slice (real manuals, mirrors, charsets): every entry point with its defaults gives its command\'s lines', async () => {
  const SLICE = join(ROOT, 'test', 'fixtures', 'realistic-slice', 'crawl');
  const dups = await findNearDuplicates(SLICE, { workers: 2 });
  assert.ok(dups.records.length > 5, 'the slice has near-duplicate clusters');
  assert.equal(lines(dups.records), cli('dups', SLICE));
  assert.equal(lines((await dedup(SLICE)).records), cli('dedup', SLICE));
  assert.equal(lines((await sketchCrawl(SLICE)).records), cli('sketch', SLICE));
  const collections = await findCollections(SLICE);
  assert.ok(collections.records.length > 0, 'the slice has replicated collections');
  assert.equal(lines(collections.records), cli('collections', SLICE));
  const mirrors = await findMirrors(SLICE);
  assert.ok(mirrors.records.length > 0, 'the slice has mirrored hosts');
  assert.equal(lines(mirrors.records), cli('mirrors', SLICE));
  assert.equal(lines((await findSignatureCollisions(SLICE)).records), cli('signatures', SLICE));
  assert.equal(lines((await studyDuplicates(SLICE)).records), cli('study', SLICE, '--format', 'jsonl'));
});

test('every entry point: a wrong option is a coded error before any work', async () => {
  let read = 0;
  const counting = { async *[Symbol.asyncIterator]() { read++; yield 'x'; } } as AsyncIterable<string>;
  const calls: [string, () => Promise<unknown>][] = [
    ['dedup', () => dedup(counting, { keep: 'largest' as 'first' })],
    ['sketchCrawl', () => sketchCrawl(counting, { sketch: { w: 0 } })],
    ['findCollections', () => findCollections(counting, { minSize: 0 })],
    ['findCollections', () => findCollections(counting, { keep: 'first' })],
    ['findMirrors', () => findMirrors(counting, { algorithm: 'magic' as 'hybrid' })],
    ['findMirrors', () => findMirrors(counting, { verify: false, infer: true })],
    ['findSignatureCollisions', () => findSignatureCollisions(counting, { D: -1 })],
    ['findSignatureCollisions', () => findSignatureCollisions(counting, { sample: 10 })],
    ['studyDuplicates', () => studyDuplicates(counting, { near: [120] })],
    ['studyDuplicates', () => studyDuplicates(counting, { minChars: -1 })],
  ];
  for (const [name, call] of calls) {
    try {
      await call();
      assert.unreachable(name);
    } catch (e) {
      assert.instance(e, ResembleError, name);
      assert.is((e as ResembleError).code, 'E_OPTION', `${name}: ${(e as Error).message}`);
    }
  }
  assert.is(read, 0, 'nothing was read');
});

test.run();
