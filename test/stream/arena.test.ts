// The streaming pipeline hands JSONL pages out of reused slabs (page-arena.ts) and lets each page go
// when its batch is sketched and it is on disk. On a crawl of two hundred slabs (small ones, 64 KiB,
// so that slabs come round while batches are in flight), read in small batches on 1 and 2 workers
// with a spill file, in page and content mode, the sketches must be
// bit-identical to one sketchMany over the pages read afresh, and the pages read back from the spill
// file identical to the pages: a slab used again too early would show as a wrong row or page.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, sketchMany } from '../../src/index.js';
import { PageArena } from '../../src/stream/page-arena.js';
import { sketchCrawl } from '../../src/stream/sketch-crawl.js';
import { rng } from '../helpers/random.js';
import { tempDir } from '../io/fixtures.js';

await init();
const { dir, cleanup } = tempDir();
const r = rng(77);
const vocab = Array.from({ length: 4000 }, (_, i) => `w${(i * 7919) % 100003}`);
const pages: string[] = [];
const sparse = (i: number) => i % 40 === 7;
// 3 sites with a shared menu and blurb each; pages of 4–14 KB; families of near-copies
for (let i = 0; i < 1200; i++) {
  const site = sparse(i) ? 3 : i % 3;
  // a heavy template: a menu, a long blurb and a footer the same on every page of the site
  const blurb = Array.from({ length: 400 }, (_, k) => vocab[(site * 977 + k * 13) % vocab.length]).join(' ');
  const menu = Array.from({ length: 60 }, (_, k) => `<li><a href="/s${site}/${k}.html">${vocab[(site * 97 + k) % vocab.length]}</a></li>`).join('') + `</ul><div class="blurb">${blurb}</div><ul>`;
  const n = 150 + Math.floor(r() * 1500);
  const base = Math.floor(i / 4);
  const words = Array.from({ length: n }, (_, k) => vocab[(base * 31 + k * 17 + (r() < 0.02 ? Math.floor(r() * 999) : 0)) % vocab.length]);
  // the first pages of each host carry one more block: its host's template, learnt from them, has it
  const early = i < 60 || (sparse(i) && i < 40 * 8) ? `<div class="early">${Array.from({ length: 80 }, (_, k) => vocab[(site * 331 + k * 7) % vocab.length]).join(' ')}</div>` : '';
  pages.push(`<html><body><ul class="menu">${menu}</ul>${early}<p>${words.join(' ')}</p><div>footer of site ${site}</div></body></html>`);
}
const path = join(dir, 'arena.jsonl');
// most pages in one section per host (/p/: its own template); every ninth in a section of its own
// (too small to learn from: it takes its host's template, learnt from the host's first pages); and
// every fortieth on a host of its own, in one section (its first eight pages teach it its template and
// are let go) and in small sections that take the host's template, learnt from its first sixteen
// pages: those come over 600 pages, so their slabs come round long before that sample is used
const urlOf = (i: number) => sparse(i) ? `http://sparse.example/${((i - 7) / 40) % 5 === 4 ? `x${i}` : 's'}/${i}.html` : `http://site${i % 3}.example/${i % 9 === 4 ? `x${i}` : 'p'}/${i}.html`;
writeFileSync(path, pages.map((html, i) => JSON.stringify({ url: urlOf(i), html })).join('\n') + '\n');
const enc = new TextEncoder();
const bytes = pages.map((p) => enc.encode(p));

const columns = ['values', 'offsets', 'cardinality', 'tokens', 'rawFp', 'lexicalFp', 'shingleFp'] as const;

test('the arena hands out pages and reuses a slab only once every page in it is released', () => {
  const arena = new PageArena();
  const held: Uint8Array[] = [];
  for (let i = 0; i < 400; i++) { const p = arena.alloc(50_000); p.fill(i & 0xff); held.push(p); }
  // every page keeps its bytes while held
  held.forEach((p, i) => assert.ok(p.every((x) => x === (i & 0xff)), `page ${i}`));
  // release all but every tenth; new pages never land on a held one
  held.forEach((p, i) => { if (i % 10) arena.release(p); });
  for (let i = 0; i < 400; i++) arena.alloc(50_000).fill(0xee);
  held.forEach((p, i) => { if (i % 10 === 0) assert.ok(p.every((x) => x === (i & 0xff)), `held page ${i} untouched`); });
  // a page larger than a quarter slab is its own buffer; hold and release pass it by
  const big = arena.alloc(3 << 20);
  assert.is(big.byteLength, 3 << 20);
  assert.is(big.buffer.byteLength, 3 << 20);
  arena.hold(big); arena.release(big); arena.release(new Uint8Array(4));
});

for (const content of ['page', 'main'] as const) {
  test(`${content}: pages from reused slabs give the sketches of one sketchMany, 1 and 2 workers, and the spill file holds them`, async () => {
    const sketch = content === 'main' ? { content } : {};
    for (const [workers, spill] of [[1, true], [2, true], [2, false]] as const) {
      const s = await sketchCrawl(path, { sketch, workers, batchBytes: 32 << 10, pageSlabBytes: 64 << 10, ...(spill ? { spillDir: dir } : {}) });
      try {
        assert.is(s.urls.length, pages.length);
        let want;
        if (content === 'main') {
          // the tables learnt equal those learnt from pages in buffers of their own (no arena) ...
          const fresh = await sketchCrawl(path, { sketch, workers: 1, read: { pageBytes: (n) => new Uint8Array(n) } });
          assert.equal(Array.from(s.templates!.tables.values), Array.from(fresh.templates!.tables.values), `${workers} workers: tables`);
          assert.equal(Array.from(s.templates!.tables.docTable), Array.from(fresh.templates!.tables.docTable));
          assert.ok(s.templates!.stats.trusted >= 3 && s.templates!.tables.values.length > 0, 'heavy templates were learnt');
          assert.ok(s.templates!.sites.some((x) => x.includes('/x')) || [...s.templates!.bySite.keys()].some((x) => x.includes('/x')), 'small sections took their host\'s template');
          // ... and one sketchMany over fresh bytes with them gives the same rows
          want = sketchMany(bytes, { ...sketch, templates: s.templates!.tables });
        } else want = sketchMany(bytes, sketch);
        for (const c of columns) assert.equal(Array.from(s.set[c] as ArrayLike<unknown>), Array.from(want[c] as ArrayLike<unknown>), `${content}, ${workers} workers: ${c}`);
        if (!spill) continue;
        const file = readFileSync(s.spill!.path);
        for (let d = 0; d < pages.length; d++) {
          const page = file.subarray(s.spill!.offset[d], s.spill!.offset[d] + s.spill!.length[d]);
          assert.ok(Buffer.compare(page, Buffer.from(bytes[d])) === 0, `spilled page ${d}`);
        }
      } finally {
        s.spill?.remove();
      }
    }
  });
}

test.after(cleanup);
test.run();
