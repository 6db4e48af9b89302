// The gzip layer under seeded mutations of real gzip members (the sample's pages as JSONL lines,
// one member each, and one stream): nothing throws, every member before the damage (one stream:
// every byte that inflates before it) comes out, no piece is larger than the bound; on the
// inflater thread the pieces are the same as here.
import { constants, inflateRawSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gunzipPieces, gzipHeaderLength, type Piece } from '../../src/io/gunzip.js';
import { gunzipPiecesOnThread } from '../../src/io/gunzip-thread.js';
import { rng } from '../helpers/random.js';
import { build, mutate, samplePages, type Corpus } from './fuzz.js';
import { concat } from './fixtures.js';

const enc = new TextEncoder();
const pages = samplePages(10);
const corpus: Corpus = {
  records: pages.map(([url, html]) => enc.encode(JSON.stringify({ url, html }) + '\n')),
  pages: pages.map(([url, html]) => ({ url, bytes: enc.encode(html) })),
  ext: '.jsonl',
};

async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** The bytes per member and the damages, joined; the largest piece. */
async function inflate(it: AsyncIterable<Piece>) {
  const members = new Map<number, Uint8Array[]>();
  const damages: string[] = [];
  let largest = 0;
  for await (const p of it) {
    if ('damage' in p) { damages.push(`${p.damage.offset} ${p.damage.message}`); continue; }
    largest = Math.max(largest, p.bytes.length);
    const list = members.get(p.member!) ?? [];
    list.push(p.bytes.slice());
    members.set(p.member!, list);
  }
  return { members: new Map([...members].map(([k, v]) => [k, concat(v)])), damages, largest };
}

const equal = (a: Uint8Array | undefined, b: Uint8Array) => a !== undefined && Buffer.from(a).equals(b);

test('gzip fuzz: 800 seeded mutations of members and of one stream; nothing throws, what precedes the damage comes out whole', async () => {
  const r = rng(8);
  for (const layout of ['members', 'stream'] as const) {
    const built = build(corpus, layout);
    const starts = [0, ...built.needs.slice(0, -1)];
    const whole = concat(corpus.records);
    const h = gzipHeaderLength(built.bytes);
    for (let c = 0; c < 400; c++) {
      const m = mutate(built, corpus, r);
      const chunk = [1 << 16, 4093, 511][c % 3];
      let out: Awaited<ReturnType<typeof inflate>>;
      try {
        out = await inflate(gunzipPieces(chunked(m.bytes, chunk)));
      } catch (e) {
        throw new Error(`${layout} case ${c} (${m.kind} at ${m.at}): ${(e as Error).stack}`);
      }
      assert.ok(out.largest <= 4 << 20, `pieces bounded (${out.largest})`);
      if (layout === 'members') {
        corpus.records.forEach((rec, i) => {
          if (built.needs[i] <= m.at) assert.ok(equal(out.members.get(starts[i]), rec), `${layout} case ${c} (${m.kind} at ${m.at}): member ${i} lost; ${out.damages.join(' | ')}`);
        });
      } else {
        const intact = m.at <= h ? new Uint8Array(0) : inflateRawSync(built.bytes.subarray(h, Math.min(built.bytes.length - 8, m.at)), { finishFlush: constants.Z_SYNC_FLUSH });
        const got = out.members.get(0) ?? new Uint8Array(0);
        assert.ok(got.length >= intact.length && Buffer.from(got.subarray(0, intact.length)).equals(intact), `${layout} case ${c} (${m.kind} at ${m.at}): ${got.length} bytes out, ${intact.length} intact before the damage; ${out.damages.join(' | ')}`);
        assert.ok(Buffer.from(intact).equals(whole.subarray(0, intact.length)));
      }
    }
  }
});

test('gzip fuzz on the inflater thread: the same pieces and damages as here, for 16 mutations', async () => {
  const r = rng(12);
  for (const layout of ['members', 'stream'] as const) {
    const built = build(corpus, layout);
    for (let c = 0; c < 8; c++) {
      const m = mutate(built, corpus, r);
      const here = await inflate(gunzipPieces(chunked(m.bytes, 8191)));
      const there = await inflate(gunzipPiecesOnThread(chunked(m.bytes, 8191)));
      assert.equal(there.damages, here.damages, `${layout} case ${c} (${m.kind})`);
      assert.equal([...there.members.keys()], [...here.members.keys()]);
      for (const [k, v] of here.members) assert.ok(equal(there.members.get(k), v), `${layout} case ${c}: member ${k}`);
    }
  }
});

test.run();
