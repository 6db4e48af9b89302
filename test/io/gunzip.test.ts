import fc from 'fast-check';
import { constants, gzipSync, inflateRawSync } from 'node:zlib';
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

test('CRC-32 and size mismatches are corrupt members, reported after their bytes; garbage between members is skipped and reported', async () => {
  const badCrc = gz[1].slice();
  badCrc[badCrc.length - 8] ^= 1;
  const junk = enc.encode('not gzip at all');
  const { text, damages } = await inflate(concat([gz[0], junk, badCrc, gz[2]]));
  assert.equal(damages.map((d) => [d.offset, d.truncated]), [[gz[0].length, false], [gz[0].length + junk.length, false]]);
  assert.match(damages[0].message, `not a gzip member at offset ${gz[0].length}: 15 bytes skipped to the next gzip member at offset ${gz[0].length + junk.length}`);
  assert.match(damages[1].message, 'CRC-32');
  assert.is(text.get(0), texts[0]);
  assert.is(text.get(gz[0].length + junk.length + badCrc.length), texts[2]);
  // the mismatch is known only at the member's end, after its bytes (a streamed member's came out already)
  assert.is(text.get(gz[0].length + junk.length), texts[1]);
  assert.is(text.size, 3);
});

/**
 * The reference for damage: inflates a stream in steps of `step` bytes (as Python's zlib
 * decompressobj fed 16 bytes at a time), keeping what each step gives until one fails; returns
 * the bytes out and the offset (in `deflate`) of the step that failed.
 */
function stepwise(deflate: Uint8Array, step: number): { out: Uint8Array; failsAt: number } {
  const outs: Uint8Array[] = [];
  let good = 0;
  for (let at = step; ; at += step) {
    const n = Math.min(at, deflate.length);
    try {
      const all = inflateRawSync(deflate.subarray(0, n), { finishFlush: constants.Z_SYNC_FLUSH });
      outs.length = 0;
      outs.push(new Uint8Array(all));
      good = n;
    } catch {
      return { out: outs[0] ?? new Uint8Array(0), failsAt: good };
    }
    if (n === deflate.length) return { out: outs[0], failsAt: -1 };
  }
}

/** Overwrites `n` bytes at `at` with 0xff (a deflate block type that does not exist: zlib fails there). */
function overwrite(b: Uint8Array, at: number, n = 16): Uint8Array {
  const bad = b.slice();
  bad.fill(0xff, at, at + n);
  return bad;
}

test('corrupt deflate data in one stream: every byte that inflates before the damage comes out, the damage at its byte', async () => {
  const whole = texts.join('').repeat(40);
  const one = new Uint8Array(gzipSync(whole, { level: 9 }));
  for (const at of [40, one.length >> 2, one.length >> 1]) {
    const bad = overwrite(one, at);
    const ref = stepwise(bad.subarray(10), 16);
    assert.ok(ref.failsAt >= 0, 'the reference fails');
    for (const sizes of [[1 << 20], [997], [65536, 13]]) {
      const { text, damages } = await inflate(bad, sizes);
      const out = text.get(0) ?? '';
      // what inflates before zlib fails (past the damage's start it may be garbage, as the reference's)
      assert.ok(out.startsWith(dec.decode(ref.out)), `damage at ${at}, chunks ${sizes}: at least what 16-byte steps inflate (${out.length} vs ${ref.out.length})`);
      assert.ok(out.length >= Math.min(whole.length, Math.max(0, at - 2000) * 2), `most of the text before the damage (${out.length})`);
      assert.is(damages.length, 1);
      const m = /bad deflate data at offset (\d+) \(/.exec(damages[0].message);
      assert.ok(m, damages[0].message);
      const failsAt = Number(m![1]);
      assert.ok(failsAt >= at && failsAt < ref.failsAt + 10 + 16, `offset ${failsAt} in the overwritten bytes or after (${at})`);
      // the exact byte: the stream through it fails, the stream before it does not
      assert.throws(() => inflateRawSync(bad.subarray(10, failsAt + 1), { finishFlush: constants.Z_SYNC_FLUSH }));
      assert.is(dec.decode(inflateRawSync(bad.subarray(10, failsAt), { finishFlush: constants.Z_SYNC_FLUSH })), out);
    }
  }
});

test('corrupt deflate data in a member in the middle: its bytes before the damage come out, then the damage, then the next members', async () => {
  const bad = overwrite(gz[3], gz[3].length >> 1);
  const ref = stepwise(bad.subarray(10), 16);
  const { text, damages } = await inflate(concat([gz[0], gz[1], gz[2], bad, gz[4], gz[5]]), [777]);
  assert.is(damages.length, 1);
  assert.is(damages[0].offset, starts[3]);
  assert.match(damages[0].message, `corrupt gzip member at offset ${starts[3]}: bad deflate data at offset`);
  const out = text.get(starts[3]) ?? '';
  assert.ok(out.startsWith(dec.decode(ref.out)), `${out.length} vs ${ref.out.length}`);
  let same = 0;
  while (same < out.length && out[same] === texts[3][same]) same++;
  assert.ok(same > texts[3].length / 3, `the text before the damage (${same} of ${texts[3].length})`);
  for (const i of [0, 1, 2, 4, 5]) assert.is(text.get(starts[i]), texts[i]);
});

test('corrupt deflate data deep in a large member (the stream search): every byte before it comes out', async () => {
  const r2 = rng(5);
  const big = Array.from({ length: 300_000 }, () => Math.floor(r2() * 1e9).toString(36)).join(' ');
  const one = new Uint8Array(gzipSync(big, { level: 1 }));
  assert.ok(one.length > (1 << 20) + 100_000, `deflate data past the one-call search (${one.length})`);
  // an overwrite deflate fails on (not every one does: some decode as other codes, caught only by the CRC-32)
  let at = one.length - 50_000, bad = overwrite(one, at);
  const fails = (b: Uint8Array) => { try { inflateRawSync(b.subarray(10)); return false; } catch { return true; } };
  while (!fails(bad)) bad = overwrite(one, (at += 997));
  const { text, damages } = await inflate(bad, [65536]);
  const out = text.get(0) ?? '';
  const m = /bad deflate data at offset (\d+) \(/.exec(damages[0].message);
  assert.ok(m, damages[0].message);
  const failsAt = Number(m![1]);
  assert.ok(failsAt >= at && failsAt < at + 1000, `${failsAt}`);
  const ref = inflateRawSync(bad.subarray(10, failsAt), { finishFlush: constants.Z_SYNC_FLUSH });
  assert.is(out, dec.decode(ref));
  let same = 0;
  while (same < out.length && out.charCodeAt(same) === big.charCodeAt(same)) same++;
  assert.ok(same > big.length * 0.9, `the text before the damage (${same} of ${big.length})`);
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
