// Line readers read plain files into a small ring of reused chunk buffers (openInput's `transient`):
// every line must still come out whole and right, whether it fits in one chunk, spans two, or spans
// more chunks than the ring holds; and gzip input (whose inflater keeps its input) takes no ring.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init } from '../../src/index.js';
import { readJsonl } from '../../src/io/jsonl.js';
import { readLines } from '../../src/io/lines.js';
import { resolveReadOptions } from '../../src/io/options.js';
import { openInput } from '../../src/io/source.js';
import { rng } from '../helpers/random.js';
import { tempDir } from './fixtures.js';

await init();
const { dir, cleanup } = tempDir();
const r = rng(404);

// Records of every size: small, about a chunk (1 MiB), and several times the ring (4 chunks).
const sizes = [10, 200, 5000, 1 << 20, (1 << 20) - 37, 3 << 20, 6 << 20, 70, (9 << 20) + 5, 1, 40_000, 2 << 20];
for (let i = 0; i < 60; i++) sizes.push(Math.floor(r() * r() * (1 << 20)));
const pages = sizes.map((n, i) => {
  const words = ['<p class="x">', 'été', '東京', 'plain', '\n', '"q"', 'tab\t', '😀'];
  let s = `<html><body>${i} `;
  while (s.length < n) s += words[Math.floor(r() * words.length)] + ' ';
  return s;
});
const text = pages.map((html, i) => JSON.stringify({ url: `http://h.example/${i}.html`, html })).join('\n') + '\n';
const path = join(dir, 'big.jsonl');
writeFileSync(path, text);
writeFileSync(path + '.gz', gzipSync(text));

for (const file of [path, path + '.gz']) {
  test(`${file.endsWith('.gz') ? 'gzip' : 'plain'}: every record read whole, lines up to several times the ring`, async () => {
    const enc = new TextEncoder();
    let i = 0;
    for await (const doc of readJsonl(file, { links: false, maxRecordBytes: 64 << 20 })) {
      assert.is(doc.url, `http://h.example/${i}.html`);
      const want = enc.encode(pages[i]);
      assert.is(doc.bytes.length, want.length, `record ${i}`);
      assert.ok(Buffer.compare(Buffer.from(doc.bytes), Buffer.from(want)) === 0, `record ${i} (${want.length} bytes)`);
      i++;
    }
    assert.is(i, pages.length);
  });
}

test('the ring is used for plain files only, and lines read from it are right', async () => {
  const plain = await openInput(path, () => {}, () => {}, { transient: true });
  assert.is(plain.gzip, false);
  const gz = await openInput(path + '.gz', () => {}, () => {}, { transient: true });
  assert.is(gz.gzip, true);
  const lines: string[] = [];
  for await (const line of readLines(path, resolveReadOptions({ maxRecordBytes: 64 << 20 }, 'test'))) lines.push(line.text);
  assert.is(lines.join('\n') + '\n', text);
});

test.after(cleanup);
test.run();
