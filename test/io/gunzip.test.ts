import fc from 'fast-check';
import { constants, gzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ByteReader } from '../../src/io/byte-reader.js';
import { gunzipPieces, type Damage } from '../../src/io/gunzip.js';
import { randomWords, rng } from '../helpers/random.js';
import { concat } from './fixtures.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

async function* chunked(bytes: Uint8Array, sizes: number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const n = Math.max(1, sizes[i % sizes.length]);
    yield bytes.subarray(at, at + n);
    at += n;
  }
}

/** Inflates through gunzipPieces; returns the bytes of each member (by offset) and the damages. */
async function inflate(bytes: Uint8Array, sizes = [1 << 20]) {
  const members = new Map<number, Uint8Array[]>();
  const damages: Damage[] = [];
  let largest = 0;
  for await (const p of gunzipPieces(chunked(bytes, sizes))) {
    if ('damage' in p) damages.push(p.damage);
    else {
      largest = Math.max(largest, p.bytes.length);
      if (!members.has(p.member!)) members.set(p.member!, []);
      members.get(p.member!)!.push(p.bytes.slice());
    }
  }
  const text = new Map([...members].map(([k, v]) => [k, dec.decode(concat(v))]));
  return { text, damages, largest };
}

const r = rng(7);
const texts = Array.from({ length: 6 }, (_, i) => `member ${i}: ${randomWords(r, 200 + i * 300).join(' ')}\n`);
const gz = texts.map((t) => new Uint8Array(gzipSync(t)));
const starts = gz.map((_, i) => gz.slice(0, i).reduce((n, m) => n + m.length, 0));
const file = concat(gz);

test('multi-member gzip: the same members and bytes at any split of the input into chunks', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 4000 }), { minLength: 1, maxLength: 8 }), async (sizes) => {
      const { text, damages } = await inflate(file, sizes);
      assert.equal(damages, []);
      assert.equal([...text.keys()], starts);
      assert.equal([...text.values()], texts);
    }),
    { numRuns: 40, seed: 11 },
  );
});

test('one stream cut anywhere: exactly a prefix of the text comes out, then "truncated" with the offset', async () => {
  const whole = texts.join('').repeat(20);
  const one = new Uint8Array(gzipSync(whole, { level: 6 }));
  for (const cut of [11, 200, one.length >> 1, one.length - 9, one.length - 1]) {
    const { text, damages } = await inflate(one.subarray(0, cut), [997]);
    const out = text.get(0) ?? '';
    assert.ok(whole.startsWith(out), `cut ${cut}: a prefix`);
    if (cut > one.length / 2) assert.ok(out.length > whole.length / 3, `cut ${cut}: most of what precedes the cut (${out.length})`);
    assert.is(damages.length, 1);
    assert.is(damages[0].truncated, true);
    assert.is(damages[0].offset, 0);
    assert.match(damages[0].message, /^truncated gzip member at offset 0: the input ends/);
  }
});

test('a corrupt member in the middle is reported at its offset as corrupt; every other member comes out whole', async () => {
  const bad = gz[2].slice();
  for (let i = 20; i < 40; i++) bad[i] ^= 0x5a; // deflate data, past the header
  const { text, damages } = await inflate(concat([gz[0], gz[1], bad, gz[3], gz[4], gz[5]]), [333]);
  assert.is(damages.length, 1);
  assert.is(damages[0].truncated, false);
  assert.is(damages[0].offset, starts[2]);
  assert.match(damages[0].message, `corrupt gzip member at offset ${starts[2]}`);
  for (const i of [0, 1, 3, 4, 5]) assert.is(text.get(starts[i]), texts[i]);
});

test('a member cut short and followed by the next: reported, the next member found again', async () => {
  const cut = gz[1].subarray(0, gz[1].length >> 1);
  const { text, damages } = await inflate(concat([gz[0], cut, gz[2]]));
  assert.is(damages.length, 1);
  assert.is(damages[0].offset, gz[0].length);
  assert.is(text.get(0), texts[0]);
  assert.is(text.get(gz[0].length + cut.length), texts[2]);
});

test('CRC-32 and size mismatches are corrupt members; garbage between members is skipped and reported', async () => {
  const badCrc = gz[1].slice();
  badCrc[badCrc.length - 8] ^= 1;
  const junk = enc.encode('not gzip at all');
  const { text, damages } = await inflate(concat([gz[0], junk, badCrc, gz[2]]));
  assert.equal(damages.map((d) => [d.offset, d.truncated]), [[gz[0].length, false], [gz[0].length + junk.length, false]]);
  assert.match(damages[0].message, `not a gzip member at offset ${gz[0].length}: 15 bytes skipped to the next gzip member at offset ${gz[0].length + junk.length}`);
  assert.match(damages[1].message, 'CRC-32');
  assert.is(text.get(0), texts[0]);
  assert.is(text.get(gz[0].length + junk.length + badCrc.length), texts[2]);
  assert.is(text.size, 2);
});

test('a gzip bomb streams: 256 MiB of NULs from 256 KB, in pieces no larger than 4 MiB', async () => {
  const zeros = new Uint8Array(1 << 20);
  const bomb = new Uint8Array(gzipSync(concat(Array.from({ length: 256 }, () => zeros)), { level: constants.Z_BEST_COMPRESSION }));
  assert.ok(bomb.length < 300_000);
  let total = 0;
  let largest = 0;
  for await (const p of gunzipPieces(chunked(bomb, [65536]))) {
    assert.not.ok('damage' in p);
    if ('bytes' in p) {
      total += p.bytes.length;
      largest = Math.max(largest, p.bytes.length);
    }
  }
  assert.is(total, 256 << 20);
  assert.ok(largest <= 4 << 20, `largest piece ${largest}`);
});

test('fuzz: flipped bytes never throw; every member the flips did not touch comes out whole', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.nat({ max: file.length - 1 }), { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 255 }), async (spots, xor) => {
      const bad = file.slice();
      for (const s of spots) bad[s] ^= xor;
      const { text } = await inflate(bad, [1500]);
      gz.forEach((m, i) => {
        const touched = spots.some((s) => s >= starts[i] - 1 && s < starts[i] + m.length);
        // A flip in the member just before may make it swallow the next header: only untouched neighbours are promised.
        const before = spots.some((s) => i > 0 && s >= starts[i - 1] && s < starts[i]);
        if (!touched && !before) assert.is(text.get(starts[i]), texts[i], `member ${i} with flips at ${spots}`);
      });
    }),
    { numRuns: 60, seed: 3 },
  );
});

test('ByteReader: capped lines skip long ones without holding them; barriers stop reads until crossed', async () => {
  const long = 'x'.repeat(5000);
  const text = `short\r\n${long}\nafter\nlast`;
  async function* pieces() {
    for (let i = 0; i < text.length; i += 100) yield { bytes: enc.encode(text.slice(i, i + 100)) };
    yield { damage: { offset: 7, message: 'cut', truncated: false } };
    yield { bytes: enc.encode('resumed\n') };
  }
  const reader = new ByteReader(pieces());
  const lines = [];
  for (;;) {
    const line = await reader.readLine(1000);
    if (line === undefined) {
      if (reader.barrier && (await reader.crossBarrier())) {
        lines.push('|barrier|');
        continue;
      }
      break;
    }
    lines.push(line.bytes === null ? `long ${line.length}` : dec.decode(line.bytes));
  }
  assert.equal(lines, ['short', 'long 5001', 'after', 'last', '|barrier|', 'resumed']);
});

test.run();
