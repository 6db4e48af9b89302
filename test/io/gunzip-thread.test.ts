import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gunzipPieces, type Piece } from '../../src/io/gunzip.js';
import { gunzipPiecesOnThread } from '../../src/io/gunzip-thread.js';
import { AHEAD } from '../../src/io/gunzip-wire.js';
import { INFLATE_THREAD_BYTES } from '../../src/io/source.js';
import { readWarc } from '../../src/io/warc.js';
import type { Document } from '../../src/graph/document.js';
import { randomWords, rng } from '../helpers/random.js';
import { concat, httpResponse } from './fixtures.js';

async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** Every piece, its bytes copied: what a reader sees, in order. */
async function pieces(it: AsyncIterable<Piece>): Promise<Piece[]> {
  const out: Piece[] = [];
  for await (const p of it) out.push('damage' in p ? p : { ...p, bytes: p.bytes.slice() });
  return out;
}

/** The pieces of both inflaters, one joined per member (their cut into pieces may differ in size, never in bytes or order). */
async function same(bytes: Uint8Array, chunk = 1 << 16): Promise<Piece[]> {
  const join = (ps: Piece[]) => {
    const out: (Piece & { parts?: Uint8Array[] })[] = [];
    for (const p of ps) {
      const last = out[out.length - 1];
      if (!('damage' in p) && last && !('damage' in last) && last.member === p.member && last.end === undefined) {
        last.parts!.push(p.bytes);
        if (p.end !== undefined) last.end = p.end;
      } else out.push('damage' in p ? p : { ...p, parts: [p.bytes] });
    }
    return out.map((p) => ('damage' in p ? p : { bytes: concat(p.parts!), member: p.member, end: p.end }));
  };
  const here = join(await pieces(gunzipPieces(chunked(bytes, chunk))));
  const there = join(await pieces(gunzipPiecesOnThread(chunked(bytes, chunk))));
  assert.equal(there, here);
  return there;
}

const r = rng(5);
const texts = Array.from({ length: 12 }, (_, i) => `member ${i}: ${randomWords(r, 100 + i * 200).join(' ')}\n`);
const gz = texts.map((t) => new Uint8Array(gzipSync(t)));
const file = concat(gz);

test('on a thread: the same members, bytes and member offsets as gunzipPieces', async () => {
  for (const chunk of [7, 1000, 1 << 16]) {
    const ps = await same(file, chunk);
    assert.is(ps.length, texts.length);
    assert.equal(ps.map((p) => new TextDecoder().decode((p as { bytes: Uint8Array }).bytes)), texts);
  }
});

test('on a thread: damage is the same piece with the same message (truncated, corrupt, garbage between members)', async () => {
  const cut = file.subarray(0, file.length - 100);
  const ps = await same(cut);
  const last = ps[ps.length - 1];
  assert.ok('damage' in last && last.damage.truncated, 'a truncated member ends the pieces with its damage');

  const corrupt = file.slice();
  const mid = gz.slice(0, 5).reduce((n, m) => n + m.length, 0);
  corrupt.fill(0x55, mid + 20, mid + 60);
  const cps = await same(corrupt);
  assert.ok(cps.some((p) => 'damage' in p && !p.damage.truncated), 'a corrupt member is reported');
  assert.ok(cps.filter((p) => !('damage' in p)).length >= texts.length - 1, 'the members after it are read');

  const garbage = concat([gz[0], new TextEncoder().encode('not gzip at all'), gz[1]]);
  const gps = await same(garbage);
  assert.is(gps.filter((p) => 'damage' in p).length, 1);
  assert.is(gps.filter((p) => !('damage' in p)).length, 2);

  assert.equal(await same(new Uint8Array(0)), []);
});

test('on a thread: members larger than the read-ahead bound stream through (memory bounded by AHEAD, not the member)', async () => {
  // incompressible bytes: a member of 2.5 × AHEAD inflated bytes goes through the streaming path
  const big = randomBytes(Math.round(AHEAD * 2.5));
  const bytes = concat([gz[0], new Uint8Array(gzipSync(big, { level: 1 })), gz[1]]);
  let largest = 0, total = 0;
  const seen: Uint8Array[] = [];
  for await (const p of gunzipPiecesOnThread(chunked(bytes, 1 << 20))) {
    if ('damage' in p) throw new Error(`unexpected damage: ${p.damage.message}`);
    largest = Math.max(largest, p.bytes.length);
    total += p.bytes.length;
    if (p.member === gz[0].length) seen.push(p.bytes.slice());
  }
  assert.is(total, big.length + texts[0].length + texts[1].length);
  assert.ok(largest <= 1 << 20, `pieces stay small (${largest} bytes)`);
  assert.ok(Buffer.from(concat(seen)).equals(big), 'the large member\'s bytes in order');
});

test('on a thread: an error reading the input is thrown to the reader, and a reader that stops early stops the thread', async () => {
  async function* failing(): AsyncGenerator<Uint8Array> {
    yield file.subarray(0, gz[0].length + gz[1].length);
    throw new Error('disk on fire');
  }
  const upTo = async (it: AsyncIterable<Piece>) => {
    const got: Piece[] = [];
    try {
      for await (const p of it) got.push('damage' in p ? p : { ...p, bytes: p.bytes.slice() });
    } catch (e) {
      return { got, error: (e as Error).message };
    }
    return { got, error: undefined };
  };
  const here = await upTo(gunzipPieces(failing())), there = await upTo(gunzipPiecesOnThread(failing()));
  assert.is(there.error, 'disk on fire');
  assert.equal(there, here);

  let n = 0;
  for await (const p of gunzipPiecesOnThread(chunked(file, 100))) { if (!('damage' in p)) n++; if (n === 2) break; }
  assert.is(n, 2);
});

test('a .warc.gz over the thread threshold reads the same pages as one under it (origins included), damage too', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'resemble-gz-thread-'));
  try {
    const records: Uint8Array[] = [];
    let size = 0;
    for (let i = 0; size < INFLATE_THREAD_BYTES * 1.3; i++) {
      // random words compress ~3:1: enough records for a file over the threshold
      const body = `<html><body><p>${randomWords(r, 3000).join(' ')}</p></body></html>`;
      const rec = new Uint8Array(gzipSync(httpResponse(`http://example.com/page${i}`, body)));
      records.push(rec);
      size += rec.length;
    }
    const whole = concat(records);
    const small = concat(records.slice(0, 3));
    const read = async (bytes: Uint8Array, name: string) => {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      const docs: Document[] = [];
      const errors: string[] = [];
      for await (const d of readWarc(path, { onError: (e) => errors.push(e.message) })) docs.push(d);
      return { docs: docs.map((d) => ({ url: d.url, bytes: Buffer.from(d.bytes).toString('base64'), origin: d.origin && { ...d.origin, path: '' } })), errors };
    };
    const big = await read(whole, 'big.warc.gz');
    assert.is(big.docs.length, records.length);
    assert.equal(big.errors, []);
    // the first pages are the same as from a small file (inflated here), origins and all
    const few = await read(small, 'small.warc.gz');
    assert.equal(big.docs.slice(0, 3), few.docs);
    // cut inside the last record: every page before it, and one error
    const cut = await read(whole.subarray(0, whole.length - 50), 'cut.warc.gz');
    assert.is(cut.docs.length, records.length - 1);
    assert.equal(cut.docs, big.docs.slice(0, -1));
    assert.is(cut.errors.length, 1);
    assert.match(cut.errors[0], 'truncated gzip member');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
