// Content mode in the saved index: `index build` records the mode and each site's template, the
// file keeps them, `index add` and `query` sketch pages of a known site against the same template
// (the same sketches as the build's), and sketches of the two modes are never compared.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.js';
import { init, sketchMany } from '../../src/index.js';
import { loadIndex, saveIndex } from '../../src/cluster/resemble-index/resemble-index.js';
import { ResembleIndex } from '../../src/cluster/resemble-index/resemble-index.js';
import { siteOfUrl, sketchCrawl } from '../../src/stream/sketch-crawl.js';
import { resolveSketchOptions } from '../../src/sketch/options.js';
import { ResembleError } from '../../src/errors.js';
import { tempDir } from '../io/fixtures.js';
import { writeInputs } from '../stream/fixtures.js';

await init();
const { dir, cleanup } = tempDir();
const inputs = await writeInputs(dir);

async function run(argv: string[]) {
  let out = '', err = '';
  const code = await main(argv, { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c) } });
  return { code, out, err };
}
const lines = (s: string) => s.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));

test('index build records content mode and every site\'s template; the file keeps them', async () => {
  const file = join(dir, 'content.rsi');
  const r = await run(['index', 'build', file, inputs.jsonl, '--workers', '2']);
  assert.is(r.code, 0, r.err);
  assert.match(r.err, /content: \d+ of \d+ sites repeat a layout on their pages/);
  const index = loadIndex(new Uint8Array(readFileSync(file)));
  assert.is(index.params.content, 'main');
  const crawl = await sketchCrawl(inputs.jsonl, { sketch: { content: 'main' }, workers: 1 });
  assert.equal([...index.templates.keys()].sort(), [...crawl.templates!.bySite.keys()].sort());
  for (const [site, t] of crawl.templates!.bySite) assert.equal(index.templates.get(site) && Array.from(index.templates.get(site)!), t && Array.from(t), site);
  assert.ok(index.templates.size > 10 && [...index.templates.values()].filter(Boolean).length > 5, `${index.templates.size} sites`);
  // the index's sketches are the pipeline's
  for (let d = 0; d < crawl.set.size; d += 17) assert.equal(Array.from(index.sketch(d).values), Array.from(crawl.set.get(d).values), `page ${d}`);
  // and they survive another save and load
  const again = loadIndex(saveIndex(index));
  assert.equal([...again.templates.entries()].map(([k, v]) => [k, v && Array.from(v)]), [...index.templates.entries()].map(([k, v]) => [k, v && Array.from(v)]));
});

test('index add sketches pages of known sites against the saved template: the same sketches as the build', async () => {
  const file = join(dir, 'add.rsi');
  assert.is((await run(['index', 'build', file, inputs.jsonl])).code, 0);
  const before = loadIndex(new Uint8Array(readFileSync(file)));
  const r = await run(['index', 'add', file, inputs.jsonl]);
  assert.is(r.code, 0, r.err);
  const [summary] = lines(r.out);
  assert.is(summary.added, before.size);
  assert.is(summary.identical + summary.lexical + summary.shingle, before.size, 'every page finds its own copy by fingerprint');
  const after = loadIndex(new Uint8Array(readFileSync(file)));
  for (let d = 0; d < before.size; d += 13) assert.equal(Array.from(after.sketch(before.size + d).values), Array.from(before.sketch(d).values), `page ${d}`);
  // mode flags belong to build: add takes the index's
  const bad = await run(['index', 'add', file, inputs.jsonl, '--content', 'page']);
  assert.is(bad.code, 2);
  assert.match(bad.err, /only `index build` sets parameters/);
});

test('query: a file sketched with its site\'s saved template finds its indexed copy; modes are never mixed', async () => {
  const file = join(dir, 'query.rsi');
  assert.is((await run(['index', 'build', file, inputs.folder])).code, 0);
  const page = join(inputs.folder, 'docs.example.com', 'sqlite', 'session', 'changegroup.html');
  const url = 'http://docs.example.com/sqlite/session/changegroup.html';
  const withSite = await run(['query', '--index', file, page, '--url', url]);
  assert.is(withSite.code, 0, withSite.err);
  const hits = lines(withSite.out);
  assert.ok(hits.some((h) => h.url === url && h.resemblance === 1), withSite.out.slice(0, 400));
  // the URL query (the stored sketch) and the file query (sketched now, with the stored template) agree
  const byUrl = lines((await run(['query', '--index', file, url])).out).map((h) => h.url);
  assert.ok(byUrl.every((u) => hits.some((h) => h.url === u)), 'every page the URL query finds, the file query finds');
  const mixed = await run(['query', '--index', file, page, '--content', 'page']);
  assert.is(mixed.code, 1);
  assert.match(mixed.err, /holds --content main sketches; a --content page query cannot be compared/);
  assert.not.match(mixed.err, /\n\s+at /, 'no stack trace');
});

test('library: a content index rejects whole-page sketches (E_PARAMS), and resolved content parameters round-trip', async () => {
  const set = sketchMany(['<p>one two three four five six seven eight nine ten</p>'], { content: 'main', minContent: 0 });
  const index = new ResembleIndex(set.params);
  assert.equal(index.params, set.params);
  assert.equal(resolveSketchOptions(set.params), set.params);
  index.insertMany(set);
  try {
    index.insertMany(sketchMany(['<p>one two three four five six seven eight nine ten</p>']));
    assert.unreachable('page-mode sketches joined a content index');
  } catch (e) {
    assert.instance(e, ResembleError);
    assert.is((e as ResembleError).code, 'E_PARAMS');
    assert.match((e as Error).message, /content/);
  }
  assert.is(siteOfUrl('http://docs.example.com/sqlite/session/x.html'), 'docs.example.com/sqlite');
});

test.after(cleanup);
test.run();
