/**
 * The readers on hostile input: every good record comes out, every bad one is reported with its
 * file and line or offset, nothing throws, memory stays bounded by the record cap. Large inputs
 * (holes, bombs) are generated here, sparse or compressed, so the files stay small on disk.
 */
import fc from 'fast-check';
import { closeSync, ftruncateSync, linkSync, mkdirSync, openSync, readFileSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Document, ReadError } from '../../src/graph/document.js';
import { loadCrawl, readBatches, readCrawl, readSingleFile } from '../../src/io/crawl.js';
import type { ReadOptions, SkipEvent } from '../../src/io/options.js';
import { setStdin } from '../../src/io/source.js';
import { concat, gzipMembers, httpResponse, tempDir, warcRecord } from './fixtures.js';

const { dir, cleanup } = tempDir();
const enc = new TextEncoder();
const dec = new TextDecoder();
const MiB = 1 << 20;
// Past any line or record cap by far (5× the default); bench/hostile.bench.ts reads 600 MiB holes.
const HOLE = 160 * MiB;

interface Run {
  docs: Document[];
  errors: ReadError[];
  skips: SkipEvent[];
  warnings: ReadError[];
}

/** Reads one input with readCrawl; returns what came out and what was reported. The input's bytes must not change. */
async function read(name: string, content: string | Uint8Array | undefined, options: ReadOptions = {}): Promise<Run> {
  const path = join(dir, name);
  if (content !== undefined) writeFileSync(path, content);
  const before = content === undefined ? undefined : readFileSync(path);
  const run: Run = { docs: [], errors: [], skips: [], warnings: [] };
  for await (const d of readCrawl(path, { onError: (e) => run.errors.push(e), onSkip: (s) => run.skips.push(s), onWarning: (w) => run.warnings.push(w), ...options })) run.docs.push(d);
  if (before) assert.ok(readFileSync(path).equals(before), `${name} unchanged`);
  for (const e of run.errors) assert.is(e.source, path, 'errors name the file');
  return run;
}

/** Gzips the parts as one stream (level 9). */
function createGzipSync(parts: string[]): Uint8Array {
  return gzipSync(Buffer.concat(parts.map((p) => Buffer.from(p))), { level: 9 });
}

const line = (url: string, text: string) => JSON.stringify({ url, text }) + '\n';
const words = (i: number) => `page ${i} has a few words of its own to sketch`;

// ---- JSONL and URL lists

test('JSONL: a UTF-8 byte-order mark does not cost the first record', async () => {
  const { docs, errors } = await read('bom.jsonl', '\uFEFF' + line('http://a.org/1', 'one') + line('http://a.org/2', 'two'));
  assert.equal(errors, []);
  assert.equal(docs.map((d) => d.url), ['http://a.org/1', 'http://a.org/2']);
});

test('JSONL: a line over the record cap is reported with its number and skipped; every other line is kept', async () => {
  const big = line('http://a.org/big', 'x'.repeat(3 * MiB));
  const { docs, errors } = await read('long.jsonl', line('http://a.org/1', 'one') + big + line('http://a.org/3', 'three'), { maxRecordBytes: MiB });
  assert.equal(docs.map((d) => d.url), ['http://a.org/1', 'http://a.org/3']);
  assert.equal(errors.map((e) => [e.location, e.code]), [['line 2', 'E_INPUT']]);
  assert.match(errors[0].message, 'line of 3.0 MiB is longer than the record cap of 1.0 MiB');
});

test('JSONL: a hole of 160 MiB (sparse file; bench/hostile.bench.ts reads 600 MiB) is a run of NULs, skipped and reported once; the records around it are kept', async () => {
  const path = join(dir, 'hole.jsonl');
  const a = line('http://a.org/1', 'one');
  const fd = openSync(path, 'w');
  writeSync(fd, a);
  ftruncateSync(fd, a.length + HOLE);
  writeSync(fd, '\n' + line('http://a.org/2', 'two'), a.length + HOLE);
  closeSync(fd);
  const { docs, errors } = await read('hole.jsonl', undefined);
  assert.equal(docs.map((d) => d.url), ['http://a.org/1', 'http://a.org/2']);
  assert.equal(errors.map((e) => e.location), ['line 2']);
  assert.match(errors[0].message, `${HOLE / MiB}.0 MiB of NUL bytes (a hole or padding, not text) skipped`);
  assert.match(errors[0].message, 'the next line is line 3');
});

test('JSONL.gz: 64 Mi blank lines between good lines are skipped in bulk; the lines after them keep their numbers', async () => {
  const gz = createGzipSync([line('http://a.org/1', 'one'), '\n'.repeat(64 * MiB), line('http://a.org/2', 'two'), 'not json\n']);
  const started = performance.now();
  const { docs, errors } = await read('blank.jsonl.gz', gz);
  const seconds = (performance.now() - started) / 1000;
  assert.equal(docs.map((d) => d.url), ['http://a.org/1', 'http://a.org/2']);
  assert.equal(errors.map((e) => e.location), [`line ${64 * MiB + 3}`]);
  assert.ok(seconds < 30, `${seconds} s`); // a loose bound: one line at a time took minutes
});

test('JSONL and URL lists: whitespace-only lines, CRLF blanks and NUL lines are skipped; NUL runs reported once each', async () => {
  const body = [line('http://a.org/1', 'one'), ' \t \r\n\r\n   \n', '\0\n'.repeat(1000), '  ' + line('http://a.org/2', 'two'), '\0\0\0' + line('http://a.org/3', 'three')].join('');
  const { docs, errors } = await read('ws.jsonl', body);
  assert.equal(docs.map((d) => d.url), ['http://a.org/1', 'http://a.org/2', 'http://a.org/3']);
  assert.equal(errors.map((e) => e.location), ['line 2', 'line 1006']);
  assert.match(errors[0].message, '1000 bytes of NUL bytes (a hole or padding, not text) skipped with the blank lines around them (2 KiB); the next line is line 1005');
  // the kept lines read back exactly from their origins
  const file = readFileSync(join(dir, 'ws.jsonl'));
  for (const d of docs) assert.is(JSON.parse(file.subarray(d.origin!.offset, d.origin!.offset + d.origin!.length).toString()).url, d.url);
  const urls = await read('ws.txt', 'http://a.org/\n \t\n\0\0\n\n  http://b.org/ 10.0.0.1\n');
  assert.equal(urls.docs.map((d) => [d.url, d.ip]), [['http://a.org/', undefined], ['http://b.org/', '10.0.0.1']]);
  assert.equal(urls.errors.map((e) => e.location), ['line 2']);
});

test('JSONL.gz: a gzip bomb line (64 MiB of NULs in 64 KB) is reported; records before and after are kept', async () => {
  const body = concat([enc.encode(line('http://a.org/1', 'one')), new Uint8Array(64 * MiB), enc.encode('\n' + line('http://a.org/2', 'two'))]);
  const { docs, errors } = await read('bomb.jsonl.gz', gzipSync(body, { level: 9 }), { maxRecordBytes: MiB });
  assert.equal(docs.map((d) => d.url), ['http://a.org/1', 'http://a.org/2']);
  assert.equal(errors.map((e) => e.location), ['line 2']);
});

test('JSONL: {"id","text"} records need --id-field (a hint says so); with it, ids that are not URLs become id: URLs', async () => {
  const content = '{"id": "doc-1", "text": "first"}\n{"id": 2, "body": "second"}\n{"id": "https://a.org/x", "body": "third"}\n';
  const without = await read('ids.jsonl', content);
  assert.equal(without.docs, []);
  assert.match(without.errors[0].message, '(records with an "id" instead: --id-field id)');
  const withId = await read('ids.jsonl', content, { idField: 'id', textField: 'body' });
  assert.equal(withId.docs.map((d) => d.url), ['id:2', 'https://a.org/x']);
  assert.equal(withId.errors.map((e) => [e.location, e.message]), [['line 1', 'expected a string "html" or "body"']]);
  const textOnly = await read('ids.jsonl', content, { idField: 'id' });
  assert.equal(textOnly.docs.map((d) => [d.url, dec.decode(d.bytes)]), [['id:doc-1', 'first']]);
});

test('JSONL: a dotted field name reaches into nested objects (datatrove and Dolma keep the URL in metadata)', async () => {
  const content = [
    '{"text": "first page", "id": "u1", "metadata": {"url": "https://a.org/1", "dump": "CC-MAIN-2024"}}',
    '{"text": "second page", "id": "u2", "metadata": {"dump": "CC-MAIN-2024"}}',
    '{"text": "third page", "id": "u3", "metadata": "https://a.org/3"}',
    '{"text": "fourth page", "id": "u4", "metadata.url": "https://a.org/4"}',
    '{"doc": {"html": "<p>fifth page</p>"}, "metadata": {"url": "https://a.org/5"}}',
  ].join('\n') + '\n';
  const r = await read('nested.jsonl', content, { idField: 'metadata.url', htmlField: 'doc.html' });
  // a top-level field of the dotted name itself comes first; a path through a non-object finds nothing
  assert.equal(r.docs.map((d) => [d.url, d.contentType, dec.decode(d.bytes)]), [
    ['https://a.org/1', 'text/plain', 'first page'],
    ['https://a.org/4', 'text/plain', 'fourth page'],
    ['https://a.org/5', 'text/html', '<p>fifth page</p>'],
  ]);
  assert.equal(r.errors.map((e) => [e.location, e.message]), [['line 2', 'expected a string or number "metadata.url"'], ['line 3', 'expected a string or number "metadata.url"']]);
});

test('URL list: a line over the cap is reported by number; the others are kept', async () => {
  const { docs, errors } = await read('long.txt', `http://a.org/\nhttp://b.org/${'y'.repeat(5000)}\nhttp://c.org/\n`, { maxRecordBytes: 1024 });
  assert.equal(docs.map((d) => d.url), ['http://a.org/', 'http://c.org/']);
  assert.equal(errors.map((e) => e.location), ['line 2']);
});

// ---- WARC

const three = [httpResponse('http://a.org/1', words(1)), httpResponse('http://a.org/2', words(2)), httpResponse('http://a.org/3', words(3))];

test('WARC: a Content-Length 40 bytes too large is named "too large"; the next, intact record is kept', async () => {
  const block = enc.encode(`HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n${words(2)}`);
  const bad = warcRecord('response', { 'WARC-Target-URI': 'http://a.org/2' }, block, block.length + 40);
  const { docs, errors } = await read('large.warc', concat([three[0], bad, three[2]]));
  assert.equal(docs.map((d) => d.url), ['http://a.org/1', 'http://a.org/2', 'http://a.org/3']);
  assert.is(dec.decode(docs[1].bytes), words(2));
  assert.equal(errors.map((e) => e.location), [`offset ${three[0].length}`]);
  assert.match(errors[0].message, 'Content-Length too large');
});

test('WARC: the last record with a Content-Length too large is truncated; earlier records kept', async () => {
  const block = enc.encode(`HTTP/1.1 200 OK\r\n\r\n${words(2)}`);
  const bad = warcRecord('response', { 'WARC-Target-URI': 'http://a.org/2' }, block, block.length + 400);
  const { docs, errors } = await read('large-end.warc', concat([three[0], bad]));
  assert.equal(docs.map((d) => d.url), ['http://a.org/1']);
  assert.match(errors[0].message, /^truncated record: \d+ bytes missing/);
});

test('WARC: the record after a 160 MiB run of NULs (a hole) is read; the run is reported with its offset', async () => {
  const path = join(dir, 'hole.warc');
  const fd = openSync(path, 'w');
  writeSync(fd, three[0]);
  ftruncateSync(fd, three[0].length + HOLE);
  writeSync(fd, three[1], 0, three[1].length, three[0].length + HOLE);
  closeSync(fd);
  const { docs, errors } = await read('hole.warc', undefined);
  assert.equal(docs.map((d) => d.url), ['http://a.org/1', 'http://a.org/2']);
  assert.equal(errors.map((e) => e.location), [`offset ${three[0].length}`]);
  assert.match(errors[0].message, `${HOLE / MiB}.0 MiB that are not a WARC record skipped to the next record at offset ${three[0].length + HOLE}`);
});

test('WARC.gz: a record inflating past the cap (64 MiB of NULs in one member) is reported and skipped; its neighbours kept', async () => {
  const head = enc.encode(`HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n`);
  const bomb = warcRecord('response', { 'WARC-Target-URI': 'http://a.org/bomb' }, concat([head, new Uint8Array(64 * MiB)]));
  const members = [gzipSync(three[0]), gzipSync(bomb, { level: 9 }), gzipSync(three[2])].map((b) => new Uint8Array(b));
  const { docs, errors } = await read('bomb.warc.gz', concat(members), { maxRecordBytes: 4 * MiB });
  assert.equal(docs.map((d) => d.url), ['http://a.org/1', 'http://a.org/3']);
  assert.equal(errors.map((e) => e.location), [`offset ${members[0].length}`]);
  assert.match(errors[0].message, 'record of 64.0 MiB is longer than the record cap of 4.0 MiB');
});

test('WARC: a NUL body under the cap is binary, not a text/html page', async () => {
  const { docs, skips } = await read('nul.warc', concat([httpResponse('http://a.org/z', new Uint8Array(4096)), three[1]]));
  assert.equal(docs.map((d) => d.url), ['http://a.org/2']);
  assert.equal(skips.map((s) => s.reason), ['binary']);
});

test('WARC: an HTTP body whose Content-Encoding inflates past the cap is reported, not inflated', async () => {
  const zipped = gzipSync(new Uint8Array(16 * MiB));
  const rec = httpResponse('http://a.org/zip', zipped, { extraHttp: ['Content-Encoding: gzip'] });
  const { docs, errors } = await read('encoded.warc', concat([rec, three[1]]), { maxRecordBytes: MiB });
  assert.equal(docs.map((d) => d.url), ['http://a.org/2']);
  assert.match(errors[0].message, 'Content-Encoding gzip) inflates to more than the record cap');
});

test('WARC.gz gzipped as one stream and cut in half: exactly the records before the cut, then "truncated" at offset 0', async () => {
  const records = Array.from({ length: 40 }, (_, i) => httpResponse(`http://a.org/${i}`, words(i)));
  const one = new Uint8Array(gzipSync(concat(records)));
  const half = one.subarray(0, one.length >> 1);
  const { docs, errors } = await read('half.warc.gz', half);
  // The reference: what zlib inflates from the half with a sync flush; every record wholly inside it must come out.
  const prefix = gunzipSync(half, { finishFlush: constants.Z_SYNC_FLUSH }).length;
  let whole = 0;
  for (let end = records[0].length; whole < records.length && end <= prefix; end += records[++whole]?.length ?? 0);
  assert.ok(whole >= 3 && whole < 40, `${whole} records before the cut`);
  assert.equal(docs.map((d) => d.url), records.slice(0, whole).map((_, i) => `http://a.org/${i}`));
  assert.equal(errors.map((e) => e.location), ['offset 0']);
  assert.match(errors[0].message, 'truncated gzip member at offset 0');
});

test('WARC.gz: a corrupt member in the middle is "corrupt" at its own offset; the members around it are kept', async () => {
  const members = gzipMembers(three);
  const bad = members[1].slice();
  for (let i = 15; i < 30; i++) bad[i] ^= 0xa5;
  const { docs, errors } = await read('corrupt.warc.gz', concat([members[0], bad, members[2]]));
  assert.equal(docs.map((d) => d.url), ['http://a.org/1', 'http://a.org/3']);
  assert.equal(errors.map((e) => e.location), [`offset ${members[0].length}`]);
  assert.match(errors[0].message, `corrupt gzip member at offset ${members[0].length}`);
});

test('WARC: hostile target URIs (file:, javascript:, ../.., absolute paths) are skipped with a message; --any-scheme keeps them', async () => {
  const hostile = ['file:///etc/passwd', 'javascript:alert(1)', '../../etc/passwd', '/etc/shadow'];
  const records = [...hostile.map((u) => httpResponse(u, words(9))), three[0]];
  const { docs, skips } = await read('uris.warc', concat(records));
  assert.equal(docs.map((d) => d.url), ['http://a.org/1']);
  assert.equal(skips.map((s) => s.reason), ['url', 'url', 'url', 'url']);
  hostile.forEach((u, i) => assert.match(skips[i].message!, JSON.stringify(u)));
  const any = await read('uris.warc', undefined, { anyScheme: true });
  assert.equal(any.docs.map((d) => d.url), [...hostile, 'http://a.org/1']);
});

test('WARC: routine records of other schemes (Heritrix dns:, Browsertrix urn:pageinfo: and urn:text:) are counted as skipped without a message each', async () => {
  const routine = [
    warcRecord('response', { 'WARC-Target-URI': 'dns:a.org', 'Content-Type': 'text/dns' }, '20260101000000\na.org. 300 IN A 192.0.2.1\n'),
    warcRecord('resource', { 'WARC-Target-URI': 'urn:pageinfo:http://a.org/1', 'Content-Type': 'application/json' }, '{"pages":{}}'),
    warcRecord('resource', { 'WARC-Target-URI': 'urn:text:http://a.org/1', 'Content-Type': 'text/plain' }, words(1)),
  ];
  const { docs, skips } = await read('routine.warc', concat([...routine, three[0]]));
  assert.equal(docs.map((d) => d.url), ['http://a.org/1']);
  assert.equal(skips.map((s) => [s.reason, s.message]), [['url', undefined], ['url', undefined], ['url', undefined]]);
});

test('WARC: header values are UTF-8 (an IRI target keeps its characters)', async () => {
  const { docs, errors } = await read('iri.warc', httpResponse('http://exämple.org/straße', words(1)));
  assert.equal(errors, []);
  assert.equal(docs.map((d) => d.url), ['http://exämple.org/straße']);
});

test('WET: conversion records are text documents; WAT (metadata only) is reported as metadata with a warning', async () => {
  const wet = concat([
    warcRecord('warcinfo', {}, 'software: test\r\n'),
    warcRecord('conversion', { 'WARC-Target-URI': 'http://a.org/1', 'Content-Type': 'text/plain' }, words(1)),
    warcRecord('conversion', { 'WARC-Target-URI': 'http://a.org/2' }, words(2)),
  ]);
  const w = await read('crawl.warc.wet.gz', concat(gzipMembers([wet])));
  assert.equal(w.docs.map((d) => [d.url, d.contentType, dec.decode(d.bytes)]), [['http://a.org/1', 'text/plain', words(1)], ['http://a.org/2', 'text/plain', words(2)]]);
  const wat = concat([warcRecord('metadata', { 'WARC-Target-URI': 'http://a.org/1', 'Content-Type': 'application/json' }, '{"Envelope":{}}')]);
  const m = await read('crawl.warc.wat', wat);
  assert.equal(m.docs, []);
  assert.equal(m.skips.map((s) => s.reason), ['metadata']);
  assert.match(m.warnings[0].message, 'metadata records and no pages');
});

// ---- folders and single files

test('folder: links out of it are reported and not followed (followSymlinks follows them); FIFOs and empty files reported', async () => {
  const root = join(dir, 'site');
  mkdirSync(join(root, 'a.org'), { recursive: true });
  writeFileSync(join(root, 'a.org', 'index.html'), `<p>${words(1)}</p>`);
  writeFileSync(join(root, 'a.org', 'empty.html'), '');
  writeFileSync(join(root, 'a.org', 'nul.html'), new Uint8Array(100));
  writeFileSync(join(dir, 'outside.html'), `<p>${words(2)}</p>`);
  symlinkSync(join(dir, 'outside.html'), join(root, 'a.org', 'out.html'));
  symlinkSync(join(root, 'a.org', 'index.html'), join(root, 'a.org', 'in.html'));
  symlinkSync(dir, join(root, 'a.org', 'loop'));
  execFileSync('mkfifo', [join(root, 'a.org', 'pipe.html')]);
  const { docs, skips } = await read('site', undefined);
  assert.equal(docs.map((d) => d.url), ['http://a.org/in.html', 'http://a.org/']);
  const byFile = Object.fromEntries(skips.map((s) => [s.location.split('/').pop(), [s.reason, s.message ?? '']]));
  assert.is(byFile['out.html'][0], 'link');
  assert.match(byFile['out.html'][1], 'outside the folder; not followed');
  assert.is(byFile['loop'][0], 'link');
  assert.equal(byFile['pipe.html'], ['other', 'a named pipe (FIFO); skipped']);
  assert.equal(byFile['empty.html'], ['other', 'empty file; skipped']);
  assert.is(byFile['nul.html'][0], 'binary');
  const followed = await read('site', undefined, { followSymlinks: true });
  assert.equal(followed.docs.map((d) => d.url), ['http://a.org/in.html', 'http://a.org/', 'http://a.org/out.html']);
});

test('single files: binary or empty named .html, a device, and an unknown kind each reported', async () => {
  const png = await read('pic.html', Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13));
  assert.equal(png.docs, []);
  assert.equal(png.skips.map((s) => [s.reason, s.message]), [['binary', 'binary content (named text/html), not a page; skipped']]);
  const empty = await read('empty.html', '');
  assert.equal(empty.skips.map((s) => s.message), ['empty file; skipped']);
  const errors: ReadError[] = [];
  for await (const _ of readSingleFile('/dev/zero', { onError: (e) => errors.push(e) })) assert.unreachable();
  assert.equal(errors.map((e) => e.message), ['a character device, not a file to read; skipped']);
  const opaque = await read('notes.dat', 'plain words in a file of unknown kind');
  assert.is(opaque.docs.length, 1);
  assert.match(opaque.warnings[0].message, 'read as one opaque text/plain document');
});

test('a file whose name says nothing is read by its first bytes: WARC, JSONL', async () => {
  const w = await read('crawl.bin', concat(gzipMembers(three)));
  assert.equal(w.docs.map((d) => d.url), ['http://a.org/1', 'http://a.org/2', 'http://a.org/3']);
  const j = await read('records.data', line('http://a.org/1', 'one'));
  assert.equal(j.docs.map((d) => d.url), ['http://a.org/1']);
});

// ---- standard input

async function readStdin(bytes: Uint8Array, options: ReadOptions = {}): Promise<Run> {
  setStdin(Readable.from([bytes.subarray(0, 5), bytes.subarray(5)]));
  const run: Run = { docs: [], errors: [], skips: [], warnings: [] };
  for await (const d of readCrawl('-', { onError: (e) => run.errors.push(e), onSkip: (s) => run.skips.push(s), onWarning: (w) => run.warnings.push(w), ...options })) run.docs.push(d);
  return run;
}

test('standard input: the format sniffed (WARC, WARC.gz, JSONL, JSONL.gz, URLs) or named', async () => {
  const urls = (r: Run) => r.docs.map((d) => d.url);
  assert.equal(urls(await readStdin(concat(three))), ['http://a.org/1', 'http://a.org/2', 'http://a.org/3']);
  assert.equal(urls(await readStdin(concat(gzipMembers(three)))), ['http://a.org/1', 'http://a.org/2', 'http://a.org/3']);
  assert.equal(urls(await readStdin(enc.encode(line('http://a.org/j', 'jay')))), ['http://a.org/j']);
  assert.equal(urls(await readStdin(new Uint8Array(gzipSync(line('http://a.org/g', 'gee'))))), ['http://a.org/g']);
  assert.equal(urls(await readStdin(enc.encode('http://a.org/u\nhttp://b.org/v\n'))), ['http://a.org/u', 'http://b.org/v']);
  const html = await readStdin(enc.encode('<p>a page on stdin</p>'), { kind: 'file' });
  assert.equal(urls(html), ['file:///dev/stdin']);
  assert.equal((await readStdin(enc.encode('x'), { kind: 'folder' })).errors.map((e) => e.message), ['standard input cannot be a folder']);
});

// ---- streaming equals batch, for every kind

test('readBatches: concatenated batches are exactly readCrawl and loadCrawl, for every input kind', async () => {
  const root = join(dir, 'batch-site');
  mkdirSync(join(root, 'b.org'), { recursive: true });
  for (let i = 0; i < 30; i++) writeFileSync(join(root, 'b.org', `p${i}.html`), `<p>${words(i)}</p>`);
  const inputs = {
    'b.warc': concat(Array.from({ length: 30 }, (_, i) => httpResponse(`http://w.org/${i}`, words(i)))),
    'b.warc.gz': concat(gzipMembers(Array.from({ length: 30 }, (_, i) => httpResponse(`http://g.org/${i}`, words(i))))),
    'b.jsonl': Array.from({ length: 30 }, (_, i) => line(`http://j.org/${i}`, words(i))).join(''),
    'b.jsonl.gz': new Uint8Array(gzipSync(Array.from({ length: 30 }, (_, i) => line(`http://z.org/${i}`, words(i))).join(''))),
    'b.txt': Array.from({ length: 30 }, (_, i) => `http://u.org/${i}\n`).join(''),
  };
  for (const [name, content] of Object.entries(inputs)) writeFileSync(join(dir, name), content);
  const paths = [root, ...Object.keys(inputs).map((n) => join(dir, n))];
  for (const path of paths) {
    const all: Document[] = [];
    for await (const d of readCrawl(path)) all.push(d);
    assert.ok(all.length === 30, `${path}: 30 documents`);
    for (const [batchDocs, batchBytes] of [[1, undefined], [7, undefined], [1000, 200]] as const) {
      const batched: Document[] = [];
      let next = 0;
      for await (const b of readBatches(path, { batchDocs, batchBytes })) {
        assert.is(b.firstId, next);
        assert.ok(b.documents.length <= batchDocs);
        next += b.documents.length;
        batched.push(...b.documents);
      }
      assert.equal(batched, all, `${path} in batches of ${batchDocs} / ${batchBytes} bytes`);
    }
    assert.equal((await loadCrawl(path)).documents, all);
  }
});

// ---- fuzz

test('fuzz: mutated WARC, WARC.gz and JSONL never throw; intact records far from the damage come out', async () => {
  const records = Array.from({ length: 8 }, (_, i) => httpResponse(`http://f.org/${i}`, words(i)));
  const plain = concat(records);
  const zipped = concat(gzipMembers(records));
  const jsonl = enc.encode(Array.from({ length: 8 }, (_, i) => line(`http://f.org/${i}`, words(i))).join(''));
  let n = 0;
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(['f.warc', plain], ['f.warc.gz', zipped], ['f.jsonl', jsonl]), fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('flip', 'cut', 'insert'), async ([name, bytes], pos, value, how) => {
        const at = pos % bytes.length;
        const mutated = how === 'flip' ? bytes.slice() : how === 'cut' ? bytes.subarray(0, at) : concat([bytes.subarray(0, at), Uint8Array.of(value, value, 0, 10), bytes.subarray(at)]);
        if (how === 'flip') mutated[at] ^= value || 1;
        const { docs } = await read(`fuzz-${n++}-${name}`, mutated);
        const got = new Set(docs.map((d) => d.url));
        // The first record entirely before the damage always survives (a cut or flip later in the file).
        const firstEnd = name === 'f.warc' ? records[0].length : name === 'f.warc.gz' ? gzipMembers(records)[0].length : jsonl.indexOf(10) + 1;
        if (at > firstEnd + 4) assert.ok(got.has('http://f.org/0'), `${name} ${how} at ${at}: the first record is kept`);
      },
    ),
    { numRuns: 60, seed: 5 },
  );
});

test('hard links and symbolic links to an input are the same file to checkOutput', async () => {
  // (here only to build the paths used by test/cli/hostile.test.ts the same way)
  const target = join(dir, 'same.jsonl');
  writeFileSync(target, line('http://a.org/1', 'one'));
  linkSync(target, join(dir, 'hard.jsonl'));
  const { checkOutput } = await import('../../src/cli/output.js');
  assert.throws(() => checkOutput(join(dir, 'hard.jsonl'), [target], '--out'), /is the input/);
  assert.throws(() => checkOutput(join(dir, 'site', 'x.jsonl'), [join(dir, 'site')], '--out'), /inside the input folder/);
  checkOutput(join(dir, 'other.jsonl'), [target], '--out');
});

test.after(cleanup);
test.run();
