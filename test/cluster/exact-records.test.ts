// The exact checks read pages back from their records in the input instead of a spill file: for
// every input kind, the exact values equal those of the pages in memory and those read back from
// the spill file, the clusters equal those of the input read again, and `dups` writes what it
// writes from standard input (spilled); only inputs that cannot be read again at a known place
// (standard input, gzip streams) write a spill file, each for its own pages. A page changed on disk
// between the passes gets no exact value (its pairs are not joined exactly) and is reported.
import { cpSync, existsSync, readdirSync, readFileSync, statSync, truncateSync, utimesSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init } from '../../src/index.js';
import { shingleSet } from '../../src/advanced.js';
import { utf8Bytes, type Document, type ReadError } from '../../src/graph/document.js';
import { loadCrawl } from '../../src/io/crawl.js';
import { setStdin } from '../../src/io/source.js';
import { main } from '../../src/cli/main.js';
import { exactPairs, intersectionCount, type ExactPairs } from '../../src/cluster/exact-pairs.js';
import { nearDuplicatesOfCrawl } from '../../src/cluster/stream.js';
import { NO_RECORD } from '../../src/stream/records.js';
import { sketchCrawl } from '../../src/stream/sketch-crawl.js';
import { concat, gzipMembers, httpResponse, tempDir } from '../io/fixtures.js';
import { rng } from '../helpers/random.js';
import { SAMPLE, writeInputs } from '../stream/fixtures.js';

await init();
const { dir, cleanup } = tempDir();
const inputs = await writeInputs(dir);
const dec = new TextDecoder();
const PAGE = { content: 'page' as const };

// The sample's pages as JSONL with escapes everywhere (\uXXXX for every non-ASCII character, on
// every other line), raw non-ASCII text, a byte-order mark, CRLF line ends, blank and broken lines.
const escapeAll = (s: string) => JSON.stringify(s).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const lines = inputs.docs.map((d, i) => {
  const html = dec.decode(d.utf8 ?? d.bytes) + (i % 5 === 0 ? '<p>Grüße aus Köln — 日本語 😀 "zitiert"\t\\</p>' : '');
  return `{"url":${JSON.stringify(d.url)},"html":${i % 2 ? escapeAll(html) : JSON.stringify(html)}}`;
});
lines.splice(30, 0, '', '{"url": 3}');
const escapedBytes = enc('\ufeff' + lines.map((l, i) => l + (i % 3 ? '\n' : '\r\n')).join(''));
const escaped = join(dir, 'escaped.jsonl');
writeFileSync(escaped, escapedBytes);

// The whole sample as WARC, its legacy-charset pages in their own bytes with the charset in the
// HTTP header; a 404 among them (not a page). Plain, and gzipped as one stream.
const { documents: sampleDocs } = await loadCrawl(SAMPLE, { links: false });
const records = sampleDocs.filter((d) => d.contentType === 'text/html').map((d) => httpResponse(d.url, d.bytes, { contentType: `text/html; charset=${d.charset ?? 'utf-8'}` }));
records.splice(7, 0, httpResponse('http://gone.example/', 'not found', { status: 404 }));
const warc = join(dir, 'sample.warc'), oneStream = join(dir, 'sample-stream.warc.gz');
writeFileSync(warc, concat(records));
writeFileSync(oneStream, gzipSync(concat(records)));

function enc(s: string): Uint8Array { return new TextEncoder().encode(s); }

/** Input kinds: the path(s), and what standard input holds for `-`. */
const kinds: Record<string, { input: string | string[]; stdin?: string; spilled: 'none' | 'all' | 'some' }> = {
  jsonl: { input: inputs.jsonl, spilled: 'none' },
  'jsonl with escapes': { input: escaped, spilled: 'none' },
  'jsonl.gz': { input: inputs.jsonlGz, spilled: 'all' },
  folder: { input: inputs.folder, spilled: 'none' },
  warc: { input: warc, spilled: 'none' },
  'warc.gz (a member per record)': { input: inputs.warc, spilled: 'none' },
  'warc.gz (one stream)': { input: oneStream, spilled: 'all' },
  stdin: { input: '-', stdin: escaped, spilled: 'all' },
  mixed: { input: [escaped, inputs.jsonlGz, inputs.folder, inputs.warc, oneStream, warc], spilled: 'some' },
};

/** Points standard input at the file it stands for in this kind (read once per setStdin). */
const feed = (k: { stdin?: string }) => { if (k.stdin) setStdin(Readable.from([readFileSync(k.stdin)])); };

async function documentsOf(k: (typeof kinds)[string]): Promise<Document[]> {
  return (await loadCrawl(k.stdin ?? k.input, { links: false })).documents;
}

/** Random pairs, pairs of neighbours, and pairs with every page in a legacy charset. */
function pairsOver(docs: Document[], seed: number): { a: Uint32Array; b: Uint32Array } {
  const n = docs.length, r = rng(seed), a: number[] = [], b: number[] = [];
  for (let i = 0; i < 300; i++) {
    const x = Math.floor(r() * n);
    a.push(x); b.push(i % 2 ? Math.floor(r() * n) : Math.min(n - 1, x + 1));
  }
  docs.forEach((d, i) => { if (d.utf8) { a.push(i); b.push((i + 1) % n); } });
  return { a: Uint32Array.from(a), b: Uint32Array.from(b) };
}

/** Exact values of the pairs from the pages in memory (the slow reference). */
function reference(docs: Document[], a: Uint32Array, b: Uint32Array): number[][] {
  const sets = new Map<number, BigUint64Array>();
  const get = (d: number) => { let x = sets.get(d); if (!x) sets.set(d, (x = shingleSet(utf8Bytes(docs[d])))); return x; };
  const r: number[] = [], ab: number[] = [], ba: number[] = [];
  for (let i = 0; i < a.length; i++) {
    const x = get(a[i]), y = get(b[i]), s = intersectionCount(x, y);
    r.push(s / (x.length + y.length - s)); ab.push(s / x.length); ba.push(s / y.length);
  }
  return [r, ab, ba];
}

const valuesOf = (e: ExactPairs) => [Array.from(e.resemblance), Array.from(e.containmentAB), Array.from(e.containmentBA)];

const spillFolder = (name: string) => join(dir, `spill-${name.replace(/\W+/g, '-')}`);
const listing = (folder: string) => (existsSync(folder) ? readdirSync(folder) : []);

for (const [name, k] of Object.entries(kinds)) {
  test(`${name}: exact values read back from the records equal those of the pages in memory and of the spill file`, async () => {
    const docs = await documentsOf(k);
    const { a, b } = pairsOver(docs, name.length);
    if (name === 'folder' || name === 'warc' || name.includes('one stream') || name === 'mixed') assert.ok(docs.some((d) => d.utf8), 'some pages are in a legacy charset');
    const spillDir = spillFolder(name);
    feed(k);
    const crawl = await sketchCrawl(k.input, { sketch: PAGE, workers: 2, batchBytes: 64 << 10, spillDir, records: true });
    try {
      assert.is(crawl.urls.length, docs.length);
      const placed = Array.from(crawl.records!.file).filter((f) => f !== NO_RECORD).length;
      if (k.spilled === 'none') {
        assert.is(placed, docs.length, 'every page has its record');
        assert.is(crawl.spill, undefined, 'no spill file');
        assert.equal(listing(spillDir), [], 'nothing in the temporary folder');
      } else {
        assert.ok(crawl.spill && existsSync(crawl.spill.path), 'a spill file');
        // the spill file holds exactly the pages without a record
        const unplaced = docs.filter((_, d) => crawl.records!.file[d] === NO_RECORD);
        assert.is(statSync(crawl.spill.path).size, unplaced.reduce((s, d) => s + utf8Bytes(d).length, 0));
        if (k.spilled === 'all') assert.is(placed, 0);
        else assert.ok(placed > 0 && unplaced.length > 0, `${placed} placed, ${unplaced.length} spilled`);
      }
      const warnings: ReadError[] = [];
      const got = await exactPairs(k.input, a, b, {
        sketch: PAGE, records: crawl.records, spill: crawl.spill, fingerprints: crawl.set.rawFp, workers: 2, windowBytes: 40 << 10,
        read: { onWarning: (w) => warnings.push(w) },
      });
      assert.equal(valuesOf(got), reference(docs, a, b), 'the values of the pages in memory');
      assert.is(got.changed, 0);
      assert.equal(warnings, []);
      // the spill path as it was: every page written, read back from the file
      feed(k);
      const spilled = await sketchCrawl(k.input, { sketch: PAGE, workers: 1, spillDir: join(dir, 'spill-all') });
      try {
        assert.is(statSync(spilled.spill!.path).size, docs.reduce((s, d) => s + utf8Bytes(d).length, 0));
        const old = await exactPairs(k.input, a, b, { sketch: PAGE, spill: spilled.spill, workers: 2 });
        assert.equal(valuesOf(got), valuesOf(old), 'the values from the spill file');
        assert.is(got.pages, old.pages);
      } finally {
        spilled.spill?.remove();
      }
    } finally {
      crawl.spill?.remove();
    }
  });
}

for (const [name, k] of Object.entries(kinds)) {
  test(`${name}: clusters with pages read back equal those of the input read again; a spill file only for what cannot be read back`, async () => {
    const spillDir = spillFolder(`nd-${name}`);
    let during: string[] | undefined;
    feed(k);
    const found = await nearDuplicatesOfCrawl(k.input, {
      workers: 2, exactBand: 4, spillDir,
      onProgress: (e) => { if (e.stage === 'exact' && during === undefined) during = listing(spillDir).flatMap((f) => readdirSync(join(spillDir, f))); },
    });
    // the reference: the whole input read again for the exact checks (standard input: the file it held)
    const again = await nearDuplicatesOfCrawl(k.stdin ?? k.input, { workers: 2, exactBand: 4, spillDir: false });
    assert.ok(found.exactPages > 0, 'pages checked exactly');
    assert.is(found.exactPairs, again.exactPairs);
    assert.is(found.exactPages, again.exactPages);
    assert.equal(Array.from(found.nd.pairs.resemblance), Array.from(again.nd.pairs.resemblance));
    assert.equal(Array.from(found.nd.clusters.clusterOf), Array.from(again.nd.clusters.clusterOf));
    assert.equal(Array.from(found.nd.clusters.via), Array.from(again.nd.clusters.via));
    assert.equal(during, k.spilled === 'none' ? [] : ['pages.bin'], 'the temporary folder during the exact checks');
    assert.equal(listing(spillDir), [], 'removed at the end');
  });
}

async function dups(args: string[]): Promise<{ out: string; err: string; code: number }> {
  let out = '', err = '';
  const code = await main(['dups', ...args], { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c), isTTY: false } });
  return { out, err, code };
}

test('dups writes the same bytes from a file (pages read back from their records) as from standard input (pages spilled)', async () => {
  for (const path of [escaped, warc, inputs.warc]) {
    for (const format of ['json', 'csv']) {
      const file = await dups([path, '--workers', '2', '--exact-band', '4', '--format', format]);
      setStdin(Readable.from([readFileSync(path)]));
      const piped = await dups(['-', '--input-format', path.endsWith('.jsonl') ? 'jsonl' : 'warc', '--workers', '2', '--exact-band', '4', '--format', format]);
      assert.is(file.code, 0, file.err);
      assert.ok(file.out.length > 1000);
      assert.is(file.out, piped.out, `${path} --format ${format}`);
      assert.not.match(file.err, 'W_CHANGED');
    }
  }
});

// Pages changed between the passes.

/** Sketches a copy of `from` (page mode, records kept), calls `change`, and checks the pairs exactly. */
async function checkAfter(from: string, name: string, change: (docs: Document[], path: string) => number[], pairs = 300, workers = 2) {
  const path = join(dir, name);
  cpSync(from, path, { recursive: true });
  // a modification time in whole seconds, which utimes can set again exactly
  if (statSync(path).isFile()) utimesSync(path, 1_700_000_000, 1_700_000_000);
  const docs = (await loadCrawl(path, { links: false })).documents;
  const { a, b } = pairsOver(docs, 3);
  const expected = reference(docs, a.subarray(0, pairs), b.subarray(0, pairs));
  const crawl = await sketchCrawl(path, { sketch: PAGE, workers: 1, spillDir: spillFolder(name), records: true });
  assert.is(crawl.spill, undefined);
  const changed = change(docs, path);
  const warnings: ReadError[] = [];
  const got = await exactPairs(path, a.subarray(0, pairs), b.subarray(0, pairs), {
    sketch: PAGE, records: crawl.records, fingerprints: crawl.set.rawFp, workers, read: { onWarning: (w) => warnings.push(w) },
  });
  // pairs with a changed page get NaN (not joined exactly); every other pair its value
  for (let i = 0; i < pairs; i++) {
    const hit = changed.includes(a[i]) || changed.includes(b[i]);
    for (const [v, col] of [[got.resemblance[i], 0], [got.containmentAB[i], 1], [got.containmentBA[i], 2]] as const) {
      if (hit) assert.ok(Number.isNaN(v), `pair ${i} has a changed page: NaN`);
      else assert.is(v, expected[col][i], `pair ${i}`);
    }
  }
  return { got, warnings, docs, a, b };
}

test('a JSONL line changed in place (same length, same modification time) is caught by its fingerprint: NaN and a warning', async () => {
  let target = -1;
  const { got, warnings } = await checkAfter(inputs.jsonl, 'changed.jsonl', (docs, path) => {
    const { a } = pairsOver(docs, 3);
    target = a[5];
    const bytes = readFileSync(path), before = statSync(path);
    const origin = docs[target].origin!;
    // swap two letters inside the page's text
    const line = bytes.subarray(origin.offset, origin.offset + origin.length);
    const at = line.indexOf('<p>'.charCodeAt(0), line.length >> 1);
    [line[at + 1], line[at + 2]] = [line[at + 2], line[at + 1]];
    writeFileSync(path, bytes);
    utimesSync(path, 1_700_000_000, 1_700_000_000);
    assert.is(statSync(path).mtimeMs, before.mtimeMs);
    assert.is(statSync(path).size, before.size);
    return [target];
  });
  assert.is(got.changed, 1);
  assert.is(warnings.length, 1);
  assert.is(warnings[0].code, 'W_CHANGED');
  assert.match(warnings[0].source, 'changed.jsonl');
  assert.match(warnings[0].message, /^1 of the \d+ pages read back from it for exact checks are not as they were \(the first: its bytes differ/);
});

test('JSONL lines that still frame but no longer hold their page (not JSON; a page of another size), made pages on the workers and on this thread: NaN and a warning', async () => {
  for (const workers of [2, 1]) {
    const { got, warnings } = await checkAfter(inputs.jsonl, `unparsed-${workers}.jsonl`, (docs, path) => {
      const { a, b } = pairsOver(docs, 3);
      const bytes = readFileSync(path);
      const line = (d: number) => bytes.subarray(docs[d].origin!.offset, docs[d].origin!.offset + docs[d].origin!.length);
      // the line's opening brace made a letter: not JSON any more
      line(a[2])[0] = 0x78;
      // an escaped quote (one byte of the page) made two letters: the page one byte longer
      const l = line(b[7]), text = Buffer.from(l.buffer, l.byteOffset, l.length);
      const at = text.indexOf('\\"', text.indexOf('"html"') + 8);
      assert.ok(at > 0 && l[at + 1] === 0x22, 'an escaped quote in the page');
      l[at] = 0x61; l[at + 1] = 0x62;
      writeFileSync(path, bytes);
      return [a[2], b[7]];
    }, 300, workers);
    assert.is(got.changed, 2, `${workers} workers`);
    assert.is(warnings.length, 1);
    assert.match(warnings[0].message, /^changed since it was read \(.*\): 2 of the \d+ pages read back from it for exact checks are not as they were \(the first: (not JSON|the line at offset \d+ no longer holds a page|a page of \d+ bytes, was \d+)/);
  }
});

test('a JSONL file appended to: every page reads back as it was (checked), the change is reported', async () => {
  const { got, warnings } = await checkAfter(inputs.jsonl, 'appended.jsonl', (_docs, path) => {
    appendFileSync(path, readFileSync(path).subarray(0, 5000));
    return [];
  });
  assert.is(got.changed, 0);
  assert.is(warnings.length, 1);
  assert.match(warnings[0].message, /^changed since it was read \(\d+ bytes when read, \d+ now\), but the \d+ pages read back from it for exact checks are as they were \(checked by their bytes\)$/);
});

test('a WARC cut short, and folder pages rewritten or removed: their pairs get NaN, each reported', async () => {
  const cut = await checkAfter(warc, 'cut.warc', (docs, path) => {
    const half = Math.floor(statSync(path).size / 2);
    truncateSync(path, half);
    return docs.map((_, d) => d).filter((d) => docs[d].origin!.offset + docs[d].origin!.length > half);
  });
  assert.ok(cut.got.changed > 10, `${cut.got.changed} pages`);
  assert.is(cut.warnings.length, 1);
  assert.match(cut.warnings[0].message, /^changed since it was read \(\d+ bytes when read, \d+ now\): \d+ of the \d+ pages/);

  const host = join(dir, 'host-copy');
  cpSync(join(SAMPLE, 'docs.example.com'), join(host, 'docs.example.com'), { recursive: true });
  const folder = await checkAfter(host, 'folder-copy', (docs) => {
    const { a, b } = pairsOver(docs, 3);
    const [x, y] = [a[0], b[1]].map((d) => docs[d].origin!.path);
    writeFileSync(x, readFileSync(x).toString().replace('<', '<!-- edited --><'));
    writeFileSync(y, '');
    return [a[0], b[1]];
  });
  assert.is(folder.got.changed, 2);
  assert.is(folder.warnings.length, 1, 'pages of their own files: one warning');
  assert.match(folder.warnings[0].message, /^2 of the \d+ pages read back from their files for exact checks are not as they were/);
});

test('nearDuplicatesOfCrawl: a page changed during the run is reported through onWarning, not joined on a wrong value', async () => {
  const path = join(dir, 'during.jsonl');
  cpSync(inputs.jsonl, path);
  const warnings: ReadError[] = [];
  const found = await nearDuplicatesOfCrawl(path, {
    workers: 2, exactBand: 4, read: { onWarning: (w) => warnings.push(w) },
    // every line cut in two between the passes
    onProgress: (e) => { if (e.stage === 'candidates' && e.state === 'done') writeFileSync(path, readFileSync(path).toString().replace(/","html":"/g, '",\n"html":"')); },
  });
  assert.ok(found.exactPairs > 0);
  assert.is(warnings.length, 1);
  assert.match(warnings[0].message, /^changed since it was read \(.*\): (\d+) of the \1 pages read back/);
});

test.after(cleanup);
test.run();
