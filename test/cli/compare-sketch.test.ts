import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.js';
import { init } from '../../src/index.js';
import { deserializeSketchSet } from '../../src/advanced.js';
import { concat, tempDir } from '../io/fixtures.js';
import { Random } from '../../src/random.js';

const { dir, cleanup } = tempDir();

/** Seeded word soup over a small vocabulary, so shingles repeat and overlap. */
function words(seed: number, n: number): string[] {
  const vocab = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa'.split(' ');
  const r = new Random(seed);
  return Array.from({ length: n }, () => vocab[r.int(vocab.length)]);
}

/** The obvious reference: the set of w-word shingles as strings. */
function shingles(ws: string[], w: number): Set<string> {
  const s = new Set<string>();
  for (let i = 0; i + w <= ws.length; i++) s.add(ws.slice(i, i + w).join(' '));
  if (ws.length > 0 && ws.length < w) s.add(ws.join(' '));
  return s;
}

function exact(a: Set<string>, b: Set<string>) {
  const shared = [...a].filter((x) => b.has(x)).length;
  return { r: shared / (a.size + b.size - shared), cab: shared / a.size, cba: shared / b.size };
}

async function run(argv: string[]) {
  let out = '', err = '';
  const code = await main(argv, { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c) } });
  return { code, out, err };
}

const A = words(7, 60);
const B = [...A.slice(0, 40), ...words(99, 30)];
writeFileSync(join(dir, 'a.txt'), A.join(' '));
writeFileSync(join(dir, 'b.txt'), B.join(' '));
writeFileSync(join(dir, 'docs.jsonl'), [
  JSON.stringify({ url: 'http://x.org/a', text: A.join(' ') }),
  JSON.stringify({ url: 'http://x.org/b', text: B.join(' ') }),
].join('\n'));

test('compare: exact values and (full-sketch) estimates match brute-force shingle sets, both directions', async () => {
  const ref = exact(shingles(A, 4), shingles(B, 4));
  for (const argv of [[join(dir, 'a.txt'), join(dir, 'b.txt')], ['--crawl', join(dir, 'docs.jsonl'), 'http://x.org/a', 'http://x.org/b']]) {
    const r = await run(['compare', ...argv, '--markup', 'text', '--w', '4', '--format', 'json']);
    assert.is(r.code, 0, r.err);
    const [rec] = JSON.parse(r.out);
    const round = (x: number) => Math.round(x * 1e4) / 1e4;
    assert.is(rec.exactResemblance, round(ref.r));
    assert.is(rec.exactContainmentAB, round(ref.cab));
    assert.is(rec.exactContainmentBA, round(ref.cba));
    assert.ok(ref.cab !== ref.cba);
    // Fewer than s = 128 shingles: the MIN_s sketch holds them all and the estimate is exact.
    assert.is(rec.resemblance, rec.exactResemblance);
    assert.is(rec.containmentAB, rec.exactContainmentAB);
    assert.is(rec.shinglesA, shingles(A, 4).size);
    assert.is(rec.shinglesB, shingles(B, 4).size);
  }
});

test('compare: wrong arity or a URL not in the crawl', async () => {
  const one = await run(['compare', join(dir, 'a.txt')]);
  assert.is(one.code, 2);
  assert.match(one.err, 'expected two documents A and B, got 1');
  const missing = await run(['compare', '--crawl', join(dir, 'docs.jsonl'), 'http://x.org/a', 'http://x.org/zzz', '-q']);
  assert.is(missing.code, 1);
  assert.match(missing.err, 'http://x.org/zzz is not a page of');
});

// The same French page saved as windows-1252 (é = 0xE9) and as UTF-8: equal sketches after decoding.
const enc = new TextEncoder();
const page = (body: Uint8Array, charset: string) => concat([enc.encode(`<html><head><meta charset="${charset}"></head><body><p>un caf`), body, enc.encode(' au lait et une cr'), body, enc.encode('me br'), body, enc.encode('l'), body, enc.encode('e pour le d'), body, enc.encode('jeuner du matin</p></body></html>')]);
mkdirSync(join(dir, 'mirror', 'latin.org'), { recursive: true });
mkdirSync(join(dir, 'mirror', 'utf.org'), { recursive: true });
writeFileSync(join(dir, 'mirror', 'latin.org', 'index.html'), page(Uint8Array.of(0xe9), 'windows-1252'));
writeFileSync(join(dir, 'mirror', 'utf.org', 'index.html'), page(enc.encode('é'), 'utf-8'));

test('sketch: JSONL records in input order; hex values ascending; charset decoded before sketching', async () => {
  const r = await run(['sketch', join(dir, 'mirror'), join(dir, 'docs.jsonl'), '--w', '4', '--s', '16']);
  assert.is(r.code, 0, r.err);
  const recs = r.out.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(recs.map((x) => [x.id, x.url]), [[0, 'http://latin.org/'], [1, 'http://utf.org/'], [2, 'http://x.org/a'], [3, 'http://x.org/b']]);
  for (const x of recs) {
    assert.ok(x.values.every((v: string) => /^[0-9a-f]{16}$/.test(v)));
    const big = x.values.map((v: string) => BigInt('0x' + v));
    for (let i = 1; i < big.length; i++) assert.ok(big[i - 1] < big[i]);
  }
  assert.equal(recs[0].values, recs[1].values);
  assert.is(recs[2].values.length, Math.min(16, shingles(A, 4).size));
  // A has more than s = 16 shingles: its count is the KMV estimate (s − 1)·2^64 / (max + 1) of the
  // printed values, rounded to a whole number and marked; a page with fewer is counted exactly.
  assert.ok(shingles(A, 4).size > 16);
  const max = BigInt('0x' + recs[2].values[15]);
  assert.equal([recs[2].estimated, recs[2].distinctShingles], [true, Math.round((15 * 2 ** 64) / (Number(max) + 1))]);
  assert.ok(Number.isInteger(recs[2].distinctShingles));
  assert.equal([recs[0].estimated, recs[0].distinctShingles], [false, recs[0].values.length]);
  assert.not.ok('cardinality' in recs[2], 'version 2 records have no cardinality field');
});

test('sketch --binary writes the SketchSet serialization; records map ids to URLs', async () => {
  await init();
  const file = join(dir, 'sketches.bin');
  const text = await run(['sketch', join(dir, 'docs.jsonl'), '--markup', 'text', '--w', '4']);
  const bin = await run(['sketch', join(dir, 'docs.jsonl'), '--markup', 'text', '--w', '4', '--binary', file, '-f', 'csv']);
  assert.is(bin.code, 0, bin.err);
  // both pages have fewer than s = 128 shingles: counted, not estimated
  assert.is(bin.out, `record,id,url,distinctShingles,estimated\n0,0,http://x.org/a,${shingles(A, 4).size},false\n1,1,http://x.org/b,${shingles(B, 4).size},false\n`);
  const set = deserializeSketchSet(new Uint8Array(readFileSync(file)));
  const recs = text.out.trim().split('\n').map((l) => JSON.parse(l));
  assert.is(set.size, 2);
  assert.is(set.params.w, 4);
  for (let i = 0; i < 2; i++) assert.equal(Array.from(set.get(i).values, (v) => v.toString(16).padStart(16, '0')), recs[i].values);
  const bad = await run(['sketch', join(dir, 'docs.jsonl'), '--kind', 'mod', '--s', '4']);
  assert.is(bad.code, 2);
});

test.after(cleanup);
test.run();
