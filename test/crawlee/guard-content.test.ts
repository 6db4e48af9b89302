// The guard in content mode: a site's pages are answered on provisional sketches until its
// template is trusted (after trustAfter distinct pages), then the provisionally indexed ones are
// sketched again against the template: the index ends up holding exactly the sketches the batch
// pipeline makes of those pages with the same tables.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, sketchMany } from '../../src/index.js';
import { utf8Bytes } from '../../src/graph/document.js';
import { loadCrawl } from '../../src/io/crawl.js';
import { DuplicateGuard } from '../../src/crawlee/guard.js';
import { loadIndex, saveIndex } from '../../src/cluster/resemble-index/resemble-index.js';
import { packTables } from '../../src/template/crawl-templates.js';
import { siteOfUrl } from '../../src/stream/sketch-crawl.js';
import { NO_TABLE } from '../../src/sketch/content.js';
import { ResembleError } from '../../src/errors.js';
import { articles, site } from '../template/sites.js';

await init();
const { documents } = await loadCrawl(`${process.cwd()}/sample`, { links: false });
const pages = documents.filter((d) => d.contentType === 'text/html');

test('content guard: templates trusted after trustAfter pages of a site; provisional pages sketched again', () => {
  // heavy 0: every site's template is removed, light ones too, so every site goes through provisional sketches and back
  const guard = new DuplicateGuard({ content: 'main', templates: { trustAfter: 4, heavy: 0 } });
  const answers = pages.map((d) => guard.isDuplicate(d.url, utf8Bytes(d)));
  assert.ok(guard.provisional > 0 && guard.duplicates > 50, `${guard.provisional} provisional, ${guard.duplicates} duplicates`);
  const perSite = new Map<string, number>();
  for (const d of pages) perSite.set(siteOfUrl(d.url), (perSite.get(siteOfUrl(d.url)) ?? 0) + 1);
  for (const [site, n] of perSite) if (n >= 12) assert.ok(guard.index.templates.get(site), `${site} (${n} pages) has a template`);
  // every indexed page of a site with a template holds the sketch made against it
  let checked = 0;
  pages.forEach((d, i) => {
    if (answers[i] !== null) return;
    const table = guard.index.templates.get(siteOfUrl(d.url));
    if (!table) return;
    const ids = guard.index.docIds(d.url);
    const expect = sketchMany([utf8Bytes(d)], { content: 'main', templates: packTables([table], Uint32Array.of(0)) });
    assert.equal(Array.from(guard.index.sketch(ids[ids.length - 1]).values), Array.from(expect.values), d.url);
    checked++;
  });
  assert.ok(checked > 50, `${checked} pages checked`);
  // a saved index carries the templates: a guard resumed from it sketches known sites at once
  const resumed = new DuplicateGuard({ index: loadIndex(saveIndex(guard.index)) });
  const known = pages.find((d) => guard.index.templates.get(siteOfUrl(d.url)))!;
  assert.is(resumed.isDuplicate(known.url + '?again', utf8Bytes(known)) !== null, true);
  assert.is(resumed.provisional, 0);
});

test('content guard: copies in sections too small to learn from are answered against their host\'s template', () => {
  const all = articles(31, 60);
  const a = site(32, 'a.example', all, Array.from({ length: 30 }, (_, i) => i), 30, 0);
  // d.example republishes articles 0–23 under its own heavy template, four to a section
  const d = site(33, 'd.example', all, Array.from({ length: 24 }, (_, i) => i), 60, 0);
  const run = (content: 'main' | 'page') => {
    const guard = new DuplicateGuard({ content });
    a.pages.forEach((p, i) => assert.is(guard.isDuplicate(`http://a.example/docs/${i}.html`, p), null, `a ${i} is new`));
    return d.pages.map((p, i) => guard.isDuplicate(`http://d.example/s${Math.floor(i / 4)}/${i}.html`, p));
  };
  const main = run('main'), page = run('page');
  const right = (answers: (string | null)[]) => answers.filter((m, i) => m === `http://a.example/docs/${i}.html`).length;
  assert.equal(main.filter((m, i) => m !== null && m !== `http://a.example/docs/${i}.html`), [], 'no wrong match');
  // the first trustAfter − 1 pages of the host come before any template of it (whole pages); every later one is caught
  console.log(`content: ${right(main)} of 24 caught; whole pages: ${right(page)}`);
  assert.ok(right(main) >= 24 - 7, `content: ${right(main)} of 24 caught`);
  assert.ok(right(page) < right(main), `whole pages: ${right(page)} of 24 caught`);
});

test('content guard options: templates only with content main; content mode is the default', () => {
  assert.is(new DuplicateGuard().index.params.content, 'main');
  assert.is(new DuplicateGuard({ content: 'page' }).index.params.content, undefined);
  try { new DuplicateGuard({ content: 'page', templates: { trustAfter: 4 } }); assert.unreachable(); } catch (e) { assert.ok(e instanceof ResembleError && e.code === 'E_OPTION'); }
  try { new DuplicateGuard({ content: 'main', templates: { trustAfter: 1 } }); assert.unreachable(); } catch (e) { assert.ok(e instanceof ResembleError && e.code === 'E_OPTION'); }
  assert.is(NO_TABLE, 0xffffffff);
});

test.run();
