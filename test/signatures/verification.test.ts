// The verification of `resemble signatures`: candidates within D collide only when the exact
// resemblance of their word-8-shingle sets reaches verifyAt. Checked against an independent brute
// force: every pair of pages, its RP distance from the signatures and its resemblance from the
// core's exact shingle sets (sketch/exact.ts, not the dense ids the command uses).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init } from '../../src/index.js';
import { exactResemblance } from '../../src/sketch/exact.js';
import { computeSignatures, rowDistance, signatureReport } from '../../src/signatures/index.js';
import { findSignatureCollisions, SIGNATURE_RUN_DEFAULTS } from '../../src/signatures/entry.js';
import { readForSignatures } from '../../src/signatures/stream.js';
import { rng } from '../helpers/random.js';
import { tempDir } from '../io/fixtures.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const rnd = rng(4141);
const vocabulary = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}`);
const text = (n: number) => Array.from({ length: n }, () => vocabulary[Math.floor(rnd() * vocabulary.length)]);
const shuffled = (w: string[]) => { const c = w.slice(); for (let i = c.length - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [c[i], c[j]] = [c[j], c[i]]; } return c; };
const edited = (w: string[], every: number) => w.map((x, i) => (i % every === every - 1 ? `${x}x` : x));

// Near copies (a word in 40 or in 12 changed: resemblance about 0.8 and 0.5), word-shuffled copies
// (the same bag of words, so nearly the same RP signature, but resemblance near 0) and unrelated pages.
const pages: Array<{ url: string; html: string }> = [];
for (let i = 0; i < 12; i++) {
  const base = text(300);
  pages.push({ url: `http://a.example/p${i}.html`, html: `<p>${base.join(' ')}</p>` });
  pages.push({ url: `http://b.example/p${i}.html`, html: `<p>${edited(base, i % 2 ? 40 : 200).join(' ')}</p>` });
  pages.push({ url: `http://c.example/p${i}.html`, html: `<p>${edited(shuffled(base), 300).join(' ')}</p>` });
  if (i % 3 === 0) pages.push({ url: `http://d.example/p${i}.html`, html: `<p>${edited(base, 12).join(' ')}</p>` });
}

const { dir, cleanup } = tempDir();
const crawl = join(dir, 'crawl.jsonl');
writeFileSync(crawl, pages.map((p) => JSON.stringify(p)).join('\n') + '\n');

test('verified collisions: exactly the candidates within D whose exact resemblance reaches verifyAt', async () => {
  await init();
  const read = await readForSignatures(crawl, { content: 'page' });
  const sig = computeSignatures(read.bags, { offsets: read.graph.linkOffsets, targets: read.graph.linkTargets });
  const n = pages.length, k = sig.params.k;
  const urls = read.graph.urls;
  const html = new Map(pages.map((p) => [p.url, new TextEncoder().encode(p.html)]));
  const resemblance = (a: number, b: number) => exactResemblance(html.get(urls[a])!, html.get(urls[b])!);
  for (const [D, verifyAt] of [[SIGNATURE_RUN_DEFAULTS.D, SIGNATURE_RUN_DEFAULTS.verifyAt], [0.1, 0.9], [0.2, 0.6]]) {
    const found = await findSignatureCollisions(crawl, { content: 'page', D, verifyAt, records: ['pairs'] });
    const got = found.records.map((r) => `${(r as { a: string }).a} ${(r as { b: string }).b}`).sort();
    const want: string[] = [];
    for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) {
      if (rowDistance(sig.rp, k, a, b) < D && resemblance(a, b) >= verifyAt) want.push(`${urls[a]} ${urls[b]}`);
    }
    assert.equal(got, want.sort(), `D ${D}, verifyAt ${verifyAt}`);
    assert.ok(want.length > 0);
    assert.is(found.summary.verifyAt, verifyAt);
    assert.ok(found.summary.rejected > 0, 'the shuffled copies are candidates and are dropped');
  }
});

test('verified collisions: the shuffled copies collide without verification and not with it; the defaults are the verified ones', async () => {
  await init();
  const shuffledPair = (r: object) => { const p = r as { a?: string; b?: string }; return p.a?.startsWith('http://a.') === true && p.b?.startsWith('http://c.') === true; };
  const plain = await findSignatureCollisions(crawl, { content: 'page', D: 0.05, verifyAt: 0, records: ['pairs'] });
  assert.ok(plain.records.some(shuffledPair), 'a bag of words does not see word order');
  assert.is(plain.summary.rejected, 0);
  const verified = await findSignatureCollisions(crawl, { content: 'page', records: ['pairs'] });
  assert.not.ok(verified.records.some(shuffledPair));
  assert.ok(verified.records.some((r) => (r as { a: string }).a.startsWith('http://a.') && (r as { b: string }).b.startsWith('http://b.')));
  assert.equal([verified.summary.D, verified.summary.verifyAt], [SIGNATURE_RUN_DEFAULTS.D, SIGNATURE_RUN_DEFAULTS.verifyAt]);
  // without verification the tolerance defaults to the unverified one
  assert.is((await findSignatureCollisions(crawl, { content: 'page', verifyAt: 0 })).summary.D, SIGNATURE_RUN_DEFAULTS.unverifiedD);
  for (const bad of [{ verifyAt: 1.5 }, { evaluate: true, verifyAt: 0.9 }]) {
    const error = await findSignatureCollisions(crawl, bad).then(() => undefined, (e: Error) => e);
    assert.match(String(error?.message), /verifyAt/);
  }
});

test('signatureReport: verify drops candidate pairs of signatures by their first pages; equal signatures still collide', () => {
  const k = 2;
  // pages 0 and 1 equal, 2 near them, 3 near 2
  const rp = Float64Array.from([0.5, 0.5, 0.5, 0.5, 0.52, 0.5, 0.54, 0.5]);
  const hm = new Float64Array(rp.length);
  const all = signatureReport(rp, hm, k, { C: 2, D: 0.03 });
  assert.is(all.candidates, 2);
  const asked: string[] = [];
  const some = signatureReport(rp, hm, k, { C: 2, D: 0.03, verify: (a, b) => { asked.push(`${a} ${b}`); return b !== 3; } });
  assert.equal(asked.sort(), ['0 2', '2 3']);
  assert.equal([some.candidates, some.rejected], [2, 1]);
  assert.equal(Array.from(some.pairs.a, (a, i) => `${a} ${some.pairs.b[i]}`), ['0 1', '0 2', '1 2']);
  const none = signatureReport(rp, hm, k, { C: 2, D: 0.03, verify: () => false });
  assert.equal(none.groups.map((g) => g.members.map((m) => m.doc)), [[0, 1]]);
  assert.throws(() => signatureReport(rp, hm, k, { verify: 1 as unknown as () => boolean }), /verify/);
});

test.after(cleanup);
test.run();
