// Pages and their source texts: a manual mirrored with the files it ships beside its pages (Sphinx's
// `_sources/x.rst.txt` holding each page's text, scripts and stylesheets no link reaches) is still
// one replicated collection, and a page's source text is never a copy of the page.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.js';
import { sameKindOnly, similarPages } from '../../src/collections/similarity.js';
import { init } from '../../src/index.js';

await init();

/** Deterministic words: page k's paragraph j, line i. */
function line(k: number, j: number, i: number): string {
  let x = (k * 7919 + j * 104729 + i * 1299709) >>> 0;
  const words: string[] = [];
  for (let w = 0; w < 9; w++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    words.push(`w${(x >>> 8) % 5000}`);
  }
  return words.join(' ');
}
const PAGES = 24;
const paragraphs = (k: number) => Array.from({ length: 6 }, (_, j) => Array.from({ length: 3 }, (_, i) => line(k, j, i)));
const name = (k: number) => (k === 0 ? 'index' : `page${k}`);

/** The manual's files: its pages (linked from the index and to their neighbours), each page's source text, and scripts no page links to. */
function manual(): Record<string, string> {
  const files: Record<string, string> = {};
  const nav = Array.from({ length: PAGES }, (_, k) => `<li><a href="${name(k)}.html">${name(k)}</a></li>`).join('');
  for (let k = 0; k < PAGES; k++) {
    const body = paragraphs(k).map((p) => `<p>${p.join('\n')}</p>`).join('\n');
    const links = [k > 0 ? `<a href="${name(k - 1)}.html">prev</a>` : '', k + 1 < PAGES ? `<a href="${name(k + 1)}.html">next</a>` : ''].join(' ');
    files[`${name(k)}.html`] = `<!DOCTYPE html><html><head><title>${name(k)}</title></head><body><ul>${k === 0 ? nav : ''}</ul>\n${body}\n<div>${links} <a href="index.html">contents</a></div></body></html>`;
    files[`_sources/${name(k)}.rst.txt`] = `${name(k)}\n${'='.repeat(name(k).length)}\n\n${paragraphs(k).map((p) => p.join('\n')).join('\n\n')}\n`;
  }
  for (let s = 0; s < 30; s++) files[`_static/script${s}.js`] = `// script ${s}\nfunction f${s}() { return ${JSON.stringify(line(100 + s, 0, 0))}; }\n`;
  return files;
}

const dir = mkdtempSync(join(tmpdir(), 'resemble-kinds-'));
const files = manual();
for (const [host, prefix] of [['docs.example.org', 'manual/3.1'], ['mirror.example.net', 'pub/docs/manual']]) {
  for (const [path, text] of Object.entries(files)) {
    const file = join(dir, host, prefix, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}

test('a page and its source text are similar, and kept apart by kind', () => {
  const html = files['page3.html'], txt = files['_sources/page3.rst.txt'];
  const enc = new TextEncoder();
  const similar = similarPages([enc.encode(html), enc.encode(txt), enc.encode(html), enc.encode(txt)]);
  // the test itself joins the page and its source: one trivial cluster of four
  assert.is(similar.trivial.count, 1);
  const kept = sameKindOnly(similar, Uint8Array.of(1, 0, 1, 0));
  assert.is(kept.trivial.count, 2);
  assert.is(kept.trivial.rid[0], kept.trivial.rid[2]);
  assert.is(kept.trivial.rid[1], kept.trivial.rid[3]);
  assert.is.not(kept.trivial.rid[0], kept.trivial.rid[1]);
  assert.equal(Array.from(kept.label), [0, 1, 0, 1]);
  assert.is(kept.resemblance(0, 1), 0);
  assert.is(kept.resemblance(1, 3), 1);
  // one kind: unchanged
  assert.is(sameKindOnly(similar, new Uint8Array(4)), similar);
  assert.throws(() => sameKindOnly(similar, new Uint8Array(3)), /one kind per page/);
});

test('a manual mirrored with its sources and scripts is one replicated collection of its pages', async () => {
  let out = '', err = '';
  const code = await main(['collections', dir], { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c), isTTY: false } });
  assert.is(code, 0, err);
  const clusters = out.split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((c) => !c.noise);
  assert.is(clusters.length, 1, err);
  const [c] = clusters;
  assert.is(c.cardinality, 2);
  const prefixes = c.collections.map((col: { prefix: string }) => col.prefix).sort();
  assert.equal(prefixes, ['http://docs.example.org/manual/3.1/', 'http://mirror.example.net/pub/docs/manual/']);
  for (const col of c.collections) {
    const pages = new Set<string>(col.pages.filter((u: string | null) => u !== null).map((u: string) => u.slice(col.prefix.length)));
    for (let k = 0; k < PAGES; k++) assert.ok(pages.has(k === 0 ? '' : `${name(k)}.html`), `${col.prefix}: ${name(k)} missing`);
    // a column never holds a page and a source text: each listed source is in the column of its own copy
    for (const u of pages) if (u.startsWith('_sources/')) assert.ok(c.collections.every((o: { pages: (string | null)[]; prefix: string }) => o.pages.some((p) => p === `${o.prefix}${u}`)));
  }
  // every column pairs a file with the same file of the other copy
  const [a, b] = c.collections;
  for (let k = 0; k < c.size; k++) {
    if (a.pages[k] === null || b.pages[k] === null) continue;
    assert.is(a.pages[k].slice(a.prefix.length), b.pages[k].slice(b.prefix.length));
  }
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
