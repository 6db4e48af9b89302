import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRecordWriter, csvCell, openAtomic, plain, round4, writeRecords } from '../../src/cli/output.js';
import { count, progressLine, startProgress, summaryLine } from '../../src/cli/progress.js';
import type { CommandContext } from '../../src/cli/command.js';

function sink() {
  let text = '';
  return { write: (c: string) => void (text += c), get text() { return text; } };
}

test('round4: nearest 4-decimal value, printed with at most 4 decimals', () => {
  for (let i = 0; i < 2000; i++) {
    const x = (i * 7.123456789 - 5000) / 97;
    const r = round4(x);
    assert.ok(Math.abs(r - x) <= 0.00005 + 1e-12, String(x));
    assert.ok(/^-?\d+(\.\d{1,4})?$/.test(String(r)), String(r));
    assert.is(r, Number(x.toFixed(4)), String(x)); // no exact ties among these x
  }
  assert.is(round4(0.30000000000000004), 0.3);
  assert.ok(Object.is(round4(-0.00001), 0));
});

test('plain: rounding, non-finite → null, bigint, typed arrays, Map, Set, undefined fields dropped', () => {
  const p = plain({ a: 1 / 3, b: NaN, c: 10n ** 20n, d: Uint8Array.of(1, 2), e: new Map([[1, 2.55555]]), f: new Set([Infinity]), g: undefined, h: 7 });
  assert.equal(p, { a: 0.3333, b: null, c: '100000000000000000000', d: [1, 2], e: { 1: 2.5556 }, f: [null], h: 7 });
});

const records = [{ url: 'http://a/', score: 0.123456, tags: ['x', 'y'] }, { url: 'http://b/, "q"', extra: { n: 1 }, score: 1 }];

test('JSONL: one record per line, keys in the order built', () => {
  const s = sink();
  assert.is(writeRecords(s, 'jsonl', records), 2);
  assert.is(s.text, '{"url":"http://a/","score":0.1235,"tags":["x","y"]}\n{"url":"http://b/, \\"q\\"","extra":{"n":1},"score":1}\n');
  assert.equal(s.text.trim().split('\n').map((l) => JSON.parse(l).url), ['http://a/', 'http://b/, "q"']);
});

test('JSON: an array, also when empty', () => {
  const s = sink();
  writeRecords(s, 'json', records);
  assert.equal(JSON.parse(s.text), [{ url: 'http://a/', score: 0.1235, tags: ['x', 'y'] }, { url: 'http://b/, "q"', extra: { n: 1 }, score: 1 }]);
  const e = sink();
  writeRecords(e, 'json', []);
  assert.equal(JSON.parse(e.text), []);
});

test('CSV: union of columns in first-seen order, RFC 4180 quoting, the record number first, nested fields as dotted columns', () => {
  const s = sink();
  const w = createRecordWriter(s, 'csv');
  for (const r of records) w.write(r);
  assert.is(s.text, '', 'CSV holds records until end()');
  w.end();
  assert.is(s.text, 'record,url,score,tags,extra.n\n0,http://a/,0.1235,x y,\n1,"http://b/, ""q""",1,,1\n');
  assert.is(csvCell('multi\nline'), '"multi\nline"');
  assert.is(csvCell(null), '');
  assert.is(csvCell(['a', null, 3]), 'a - 3');
});

test('CSV: one row per member, the record\'s fields on each; no members or an empty list is one row; other lists of objects by index', () => {
  const s = sink();
  writeRecords(s, 'csv', [
    { cluster: 0, size: 2, members: [{ url: 'http://a/', kind: 'representative' }, { url: 'http://b/', kind: 'identical', extra: { n: 1 } }] },
    { cluster: 1, size: 0, members: [] },
    { cluster: 2, size: 1, members: [{ url: 'http://c/' }], seeds: [{ id: 4 }, { id: 5 }] },
  ]);
  assert.is(s.text, [
    'record,cluster,size,members.url,members.kind,members.extra.n,seeds.0.id,seeds.1.id',
    '0,0,2,http://a/,representative,,,',
    '0,0,2,http://b/,identical,1,,',
    '1,1,0,,,,,',
    '2,2,1,http://c/,,,4,5',
    '',
  ].join('\n'));
  const t = sink();
  writeRecords(t, 'csv', [{ n: 1, clusters: [{ cluster: 0, members: ['http://a/', 'http://b/'] }, { cluster: 1, members: ['http://c/'] }] }], { members: ['clusters', 'members'] });
  assert.is(t.text, 'record,n,clusters.cluster,clusters.members\n0,1,0,http://a/\n0,1,0,http://b/\n0,1,1,http://c/\n');
});

test('openAtomic: records gathered into chunks reach the file in order, strings and bytes mixed, only on commit; abort leaves nothing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'resemble-atomic-'));
  try {
    const path = join(dir, 'out.jsonl');
    const f = openAtomic(path);
    let want = '';
    // enough to flush several chunks in between (each a megabyte or so), with bytes written between strings
    for (let i = 0; i < 40_000; i++) {
      const line = JSON.stringify({ i, text: 'é'.repeat(i % 97) }) + '\n';
      if (i % 9_999 === 0) { const bytes = new TextEncoder().encode(`bytes ${i}\n`); f.writeBytes(bytes); want += `bytes ${i}\n`; }
      f.write(line);
      want += line;
    }
    assert.not.ok(existsSync(path), 'nothing at the path before commit');
    f.commit();
    assert.is(readFileSync(path, 'utf8'), want);
    const g = openAtomic(join(dir, 'failed.jsonl'));
    g.write('half a record');
    g.abort();
    assert.equal(readdirSync(dir), ['out.jsonl'], 'an aborted file leaves nothing, not even its temporary file');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('summary and progress lines', () => {
  assert.is(summaryLine({ documents: 1, bytes: 3 * 1024 * 1024, errors: 2, skipped: { binary: 3, status: 0, other: 1 }, seconds: 0.84 }),
    'read 1 document (3.0 MB) in 0.8 s; 2 errors; 4 skipped (binary 3, other 1)');
  assert.is(summaryLine({ documents: 0, bytes: 0, errors: 1, skipped: { binary: 0 }, seconds: 0 }), 'read 0 documents (0.0 MB) in 0.0 s; 1 error; 0 skipped');
  assert.is(progressLine('reading', { documents: 50, bytes: 2 * 1024 * 1024 }, 2, undefined, '', ''), 'reading 50 docs | 25 docs/s | 1.0 MB/s');
  assert.is(progressLine('reading', { documents: 50, bytes: 1024 * 1024 }, 1, 4 * 1024 * 1024, '[==--]', '3s'), 'reading [==--] 25% | 50 docs | 50 docs/s | 1.0 MB/s | ETA 3s');
});

test('progress bar drawn on a TTY only when ctx.progress; cleared on stop', () => {
  let written = '';
  const tty = { isTTY: true, columns: 120, write: (c: string) => ((written += c), true), cursorTo() {}, clearLine() {}, moveCursor() {}, clearScreenDown() {} };
  const ctx = (progress: boolean) => ({ progress, quiet: !progress }) as CommandContext;
  const silent = startProgress(ctx(false), 'reading', 100, tty as unknown as NodeJS.WriteStream);
  silent.update({ documents: 1, bytes: 50 });
  silent.stop();
  assert.is(written, '');
  const bar = startProgress(ctx(true), 'reading', 100, tty as unknown as NodeJS.WriteStream);
  bar.update({ documents: 1, bytes: 50 });
  bar.stop();
  assert.match(written, /reading [^\n]*% \| \d+ docs \| [\d.]+ docs\/s \| [\d.]+ MB\/s \| ETA/);
});

test('a stage is drawn at once when new; its text, given as a function, only with a frame (a stage may report every page)', () => {
  let written = '';
  const tty = { isTTY: true, columns: 120, write: (c: string) => ((written += c), true), cursorTo() {}, clearLine() {}, moveCursor() {}, clearScreenDown() {} };
  const ctx = (progress: boolean) => ({ progress, quiet: !progress }) as CommandContext;
  let calls = 0;
  const silent = startProgress(ctx(false), 'reading', 100, tty as unknown as NodeJS.WriteStream);
  for (let i = 0; i < 1000; i++) silent.stage('exact checks', () => `${++calls} pages`);
  silent.stop();
  assert.is(calls, 0);
  const bar = startProgress(ctx(true), 'reading', 100, tty as unknown as NodeJS.WriteStream);
  bar.stage('candidates', 'pairs…');
  assert.match(written, /candidates pairs…/);
  for (let i = 0; i < 10000; i++) bar.stage('exact checks', () => `${++calls} pages`);
  // drawn once when the stage began (the bar's timer draws the later frames)
  assert.ok(calls >= 1 && calls <= 3, `text made ${calls} times`);
  assert.match(written, /exact checks 1 pages/);
  bar.stop();
});

test('count: thousands separators as toLocaleString(en-US) writes them, without loading the locale data', () => {
  const values = [0, -0, 0.4, -0.4, 1, 9, 10, 99, 100, 999, 1000, 1001, 9999, 12345, 123456, 999999, 1000000, 1234567.5, -1, -999, -1000, -1234567,
    2 ** 31, 2 ** 32 + 7, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 60, 1e21, NaN, Infinity, -Infinity];
  for (let k = 0; k < 200; k++) values.push(Math.floor(Math.sin(k + 1) * 10 ** (k % 16)));
  for (const v of values) assert.is(count(v), Math.round(v).toLocaleString('en-US'), String(v));
});

test.run();
