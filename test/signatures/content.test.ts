// Bags of words by content: the same article under two heavy templates gets the same bag (cosine
// 1), where whole-page bags are dominated by the templates; pages of a site whose template is light
// keep their whole-page bags; text pages are read as text.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init } from '../../src/index.js';
import { bagCosine, crawlBags } from '../../src/signatures/index.js';
import type { Document } from '../../src/graph/document.js';
import { articles, site } from '../template/sites.js';

await init();
const utf8 = new TextEncoder();
const all = articles(41, 40);
const ids = Array.from({ length: 20 }, (_, i) => i);
const a = site(42, 'a.example', all, ids, 60, 0), b = site(43, 'b.example', all, ids, 60, 0);
const docs: Document[] = [
  ...a.pages.map((p, i) => ({ url: `http://a.example/news/${i}.html`, bytes: utf8.encode(p), contentType: 'text/html' })),
  ...b.pages.map((p, i) => ({ url: `http://b.example/${i}.html`, bytes: utf8.encode(p), contentType: 'text/html' })),
  { url: 'http://c.example/notes.txt', bytes: utf8.encode('<p>plain text with angle brackets</p> kept as words'), contentType: 'text/plain' },
];
const n = a.pages.length;

test('content bags: the same article under two templates has one bag; whole-page bags are the templates\'', () => {
  const content = crawlBags(docs, { content: 'main' }), page = crawlBags(docs);
  let same = 0, exact = 0;
  for (let i = 0; i < n; i++) {
    if (a.article[i] !== b.article[i]) continue;
    same++;
    assert.ok(bagCosine(content, i, n + i) > 0.95, `article ${a.article[i]}: content cosine ${bagCosine(content, i, n + i)}`);
    assert.ok(bagCosine(page, i, n + i) < 0.7, `article ${a.article[i]}: page cosine ${bagCosine(page, i, n + i)}`);
    if (bagCosine(content, i, n + i) > 1 - 1e-9) exact++;
  }
  assert.ok(same >= 15, `${same} articles on both sites`);
  // nearly all are the very same bag
  assert.ok(exact >= same - 2, `${exact} of ${same} identical bags`);
  // two different articles of one site: close by their template as whole pages, apart by content
  assert.ok(bagCosine(page, 0, 1) > bagCosine(content, 0, 1) + 0.2, `${bagCosine(page, 0, 1)} vs ${bagCosine(content, 0, 1)}`);
  // the text page is read as text either way
  const last = docs.length - 1;
  assert.equal(Array.from(content.terms.subarray(content.offsets[last], content.offsets[last + 1])), Array.from(page.terms.subarray(page.offsets[last], page.offsets[last + 1])));
});

test('content bags: options checked', () => {
  assert.throws(() => crawlBags(docs, { content: 'words' as never }), /content/);
  assert.throws(() => crawlBags(docs, { templates: { trustAfter: 4 } }), /templates/);
});

test.run();
