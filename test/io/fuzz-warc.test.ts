// The WARC reader under seeded mutations of real records (the sample's pages as response records):
// plain, one gzip member per record, one gzip stream. See fuzz.ts for the mutations and checks.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { build, fuzzReader, mutate, samplePages, type Corpus } from './fuzz.js';
import { httpResponse, tempDir } from './fixtures.js';
import { rng } from '../helpers/random.js';

const enc = new TextEncoder();
const dec = new TextDecoder();
const { dir, cleanup } = tempDir('resemble-fuzz-warc-');
const pages = samplePages(8);

/** The byte range of the first line starting with `name` and of its value. */
function headerLine(rec: Uint8Array, name: string): { line: [number, number]; value: [number, number] } | undefined {
  const head = dec.decode(rec.subarray(0, Math.min(rec.length, 2048)));
  const at = head.indexOf(`\r\n${name}: `);
  if (at < 0) return undefined;
  const s = at + 2, v = s + name.length + 2, e = head.indexOf('\r\n', v);
  // ASCII headers: string offsets are byte offsets
  return { line: [s, e + 2], value: [v, e] };
}

const corpus: Corpus = {
  records: pages.map(([url, html]) => httpResponse(url, html)),
  pages: pages.map(([url, html]) => ({ url, bytes: enc.encode(html) })),
  ext: '.warc',
  headerAt: (rec) => {
    const target = headerLine(rec, 'WARC-Target-URI'), length = headerLine(rec, 'Content-Length');
    return target && length ? { line: target.line, length: length.value } : undefined;
  },
};

test('WARC fuzz: 750 seeded mutations (flips, truncations, splices, duplicated headers, huge lengths); no exception, every record before the damage kept', async () => {
  const r = await fuzzReader(corpus, dir, { cases: 250, seed: 1, layouts: ['plain', 'members', 'stream'] });
  assert.is(r.cases, 750);
  assert.ok(r.promised > 1500, `records promised ${r.promised}`);
  assert.ok(r.damaged > 350, `cases reported as damaged ${r.damaged}`);
});

test('WARC fuzz: the mutations are what they say (a duplicated header is there, a huge length is written)', () => {
  const built = build(corpus, 'plain');
  const r = rng(4);
  const seen = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const m = mutate(built, corpus, r);
    seen.add(m.kind);
    assert.not.equal(m.bytes, built.bytes);
    if (m.kind === 'huge-length') assert.match(dec.decode(m.bytes.subarray(m.at, m.at + 600)), /Content-Length: (99999999999999999999|9007199254740992|4294967296|-1|1e9|1073741824)\r\n/);
  }
  assert.equal([...seen].sort(), ['duplicate-header', 'flip', 'flips', 'huge-length', 'insert-junk', 'splice', 'truncate', 'zero-run']);
});

test.after(cleanup);
test.run();
