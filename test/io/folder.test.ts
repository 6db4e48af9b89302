import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Document, ReadError } from '../../src/graph/document.js';
import { mirrorPathToUrl, readFolder } from '../../src/io/folder.js';
import type { SkipEvent } from '../../src/io/options.js';
import { tempDir } from './fixtures.js';

const { dir, cleanup } = tempDir();

function put(rel: string, content: string | Uint8Array) {
  const path = join(dir, rel);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
}

const binary = Uint8Array.from({ length: 600 }, (_, i) => (i * 37) % 256);
put('www.a.org/index.html', '<html><a href="page.html">p</a><a href="sub/index.html">s</a><a href="http://b.org:8080/">b</a></html>');
put('www.a.org/page.html', '<p>page</p>');
put('www.a.org/sub/index.html', '<p>sub</p>');
put('www.a.org/list.php?id=3&x=y', '<html><body>item 3</body></html>');
put('www.a.org/sub/index.html?lang=fr', '<p>sub fr</p>');
put('www.a.org/odd name%3Fq.html', '<p>escaped</p>');
put('www.a.org/notes.txt', 'plain text notes');
put('www.a.org/logo.png', binary);
put('www.a.org/blob', binary);
put('www.a.org/page.html.orig', '<p>backup</p>');
put('b.org:8080/index.html', '<p>port</p>');
put('b.org+8081/index.html', '<p>windows port spelling</p>');
put('stray.txt', 'not in a host folder');

async function read(): Promise<{ docs: Document[]; errors: ReadError[]; skips: SkipEvent[]; bytes: number }> {
  const errors: ReadError[] = [];
  const skips: SkipEvent[] = [];
  let bytes = 0;
  const docs: Document[] = [];
  for await (const d of readFolder(dir, { onError: (e) => errors.push(e), onSkip: (s) => skips.push(s), onBytes: (n) => (bytes += n) })) docs.push(d);
  return { docs, errors, skips, bytes };
}

test('wget layout → URLs: index.html as directory, query strings, escapes, ports; sorted walk', async () => {
  const { docs, errors } = await read();
  assert.equal(errors, []);
  assert.equal(docs.map((d) => d.url), [
    'http://b.org:8081/', // folder b.org+8081 sorts before b.org:8080
    'http://b.org:8080/',
    'http://www.a.org/',
    'http://www.a.org/list.php?id=3&x=y',
    'http://www.a.org/notes.txt',
    'http://www.a.org/odd%20name%3Fq.html',
    'http://www.a.org/page.html',
    'http://www.a.org/sub/',
    'http://www.a.org/sub/?lang=fr',
  ]);
  const byUrl = new Map(docs.map((d) => [d.url, d]));
  assert.is(byUrl.get('http://www.a.org/notes.txt')!.contentType, 'text/plain');
  assert.is(byUrl.get('http://www.a.org/list.php?id=3&x=y')!.contentType, 'text/html');
  assert.is(new TextDecoder().decode(byUrl.get('http://www.a.org/page.html')!.bytes), '<p>page</p>');
  // wget's converted link to sub/index.html names the directory URL, so it meets the page.
  assert.equal(byUrl.get('http://www.a.org/')!.links, ['http://www.a.org/page.html', 'http://www.a.org/sub/', 'http://b.org:8080/']);
});

test('binaries are skipped and counted (by extension and by sniffing); stray files and backups too', async () => {
  const { skips, bytes, docs } = await read();
  const reasons = skips.map((s) => `${s.reason} ${s.location.slice(dir.length + 1)}`).sort();
  assert.equal(reasons, ['binary www.a.org/blob', 'binary www.a.org/logo.png', 'other stray.txt', 'other www.a.org/page.html.orig'].sort());
  const kept = docs.reduce((n, d) => n + d.bytes.length, 0);
  assert.is(bytes, kept + 2 * binary.length + 'not in a host folder'.length + '<p>backup</p>'.length);
});

test('mirrorPathToUrl: scheme option, empty query, and too-short paths', () => {
  assert.is(mirrorPathToUrl(['h.org', 'a', 'index.html'], 'https'), 'https://h.org/a/');
  assert.is(mirrorPathToUrl(['h.org', 'x.html?']), 'http://h.org/x.html');
  assert.is(mirrorPathToUrl(['h.org', 'a%20b', 'c d.html']), 'http://h.org/a%20b/c%20d.html');
  assert.is(mirrorPathToUrl(['only-file.html']), undefined);
});

test('a missing folder is reported, not thrown', async () => {
  const errors: ReadError[] = [];
  for await (const _ of readFolder(join(dir, 'nope'), { onError: (e) => errors.push(e) })) assert.unreachable();
  assert.is(errors.length, 1);
  assert.is(errors[0].code, 'E_IO');
});

test.after(cleanup);
test('a large folder is read synchronously file by file, but the event loop still gets its turns (timers, workers\' results)', async () => {
  const { dir, cleanup } = tempDir();
  mkdirSync(join(dir, 'a.example'), { recursive: true });
  const body = `<p>${'word '.repeat(2000)}</p>`;
  for (let i = 0; i < 3000; i++) writeFileSync(join(dir, 'a.example', `p${String(i).padStart(4, '0')}.html`), body);
  let ticks = 0, docs = 0, ticksBeforeEnd = 0;
  const timer = setInterval(() => ticks++, 1);
  const started = performance.now();
  for await (const _ of readFolder(dir)) docs++;
  const ms = performance.now() - started;
  ticksBeforeEnd = ticks;
  clearInterval(timer);
  assert.is(docs, 3000);
  // one directory: no readdir between the files to wait on; only the reader's own turns let the timer run
  if (ms > 100) assert.ok(ticksBeforeEnd >= 3, `${ticksBeforeEnd} timer ticks in ${ms.toFixed(0)} ms of reading`);
  cleanup();
});

test('links wget --convert-links wrote into another host folder name that host', async () => {
  const { dir: mirror, cleanup: done } = tempDir();
  const file = (rel: string, content: string) => { const path = join(mirror, rel); mkdirSync(join(path, '..'), { recursive: true }); writeFileSync(path, content); };
  file('docs.a.org/manual/ch1/intro.html', '<a href="../../../docs.b.net/mirror/ch1/intro.html">b</a><a href="../../../docs.b.net/mirror/index.html">b home</a>'
    + '<a href="../../../c.org+8080/x.html">c</a><a href="../../e.example/kept.html">own folder</a><a href="../../../unknown.host/y.html">no such host</a><a href="../index.html">up</a>');
  // docs.a.org has a folder of its own named like the other host: links into it stay on docs.a.org
  file('docs.a.org/e.example/kept.html', '<p>a folder of docs.a.org</p>');
  file('e.example/index.html', '<p>another host</p>');
  file('docs.b.net/mirror/ch1/intro.html', '<p>b</p>');
  file('docs.b.net/mirror/index.html', '<p>b home</p>');
  file('c.org+8080/x.html', '<p>c</p>');
  const docs: Document[] = [];
  for await (const d of readFolder(mirror)) docs.push(d);
  const intro = docs.find((d) => d.url === 'http://docs.a.org/manual/ch1/intro.html')!;
  assert.equal(intro.links, [
    'http://docs.b.net/mirror/ch1/intro.html',
    'http://docs.b.net/mirror/',
    'http://c.org:8080/x.html',
    'http://docs.a.org/e.example/kept.html',
    'http://docs.a.org/unknown.host/y.html',
    'http://docs.a.org/manual/',
  ]);
  // every link into another host folder meets the page it names
  const urls = new Set(docs.map((d) => d.url));
  for (const l of intro.links!.slice(0, 4)) assert.ok(urls.has(l), l);
  done();
});

test('pages at the top of a folder (wget -nH, a site\'s own folder) are named in one warning; notes beside a crawl are not', async () => {
  const { dir: site, cleanup: done } = tempDir();
  mkdirSync(join(site, 'docs', 'guide'), { recursive: true });
  writeFileSync(join(site, 'index.html'), '<p>home</p>');
  writeFileSync(join(site, 'about.htm'), '<p>about</p>');
  writeFileSync(join(site, 'robots.txt'), 'User-agent: *');
  writeFileSync(join(site, 'docs', 'guide', 'a.html'), '<p>a</p>');
  const warnings: ReadError[] = [];
  const urls: string[] = [];
  for await (const d of readFolder(site, { onWarning: (w) => warnings.push(w) })) urls.push(d.url);
  assert.equal(urls, ['http://docs/guide/a.html']);
  assert.is(warnings.length, 1);
  assert.is(warnings[0].code, 'W_LAYOUT');
  assert.match(warnings[0].message, /^2 pages at the top of the folder \(about\.htm, index\.html\) not read: .* its folders are read as hosts \(docs\)/);
  // a crawl folder with a README and a list beside its host folders: nothing to say
  const notes: ReadError[] = [];
  writeFileSync(join(dir, 'README.md'), '# crawl');
  writeFileSync(join(dir, 'hosts.txt'), 'www.a.org');
  for await (const _ of readFolder(dir, { onWarning: (w) => notes.push(w) })) { /* read */ }
  assert.equal(notes, []);
  done();
});

test('an HTTrack project: its cache, log and index page are not the crawl, nor the files of a run stopped midway; host_port folders are host:port', async () => {
  const { dir: proj, cleanup: done } = tempDir();
  const write = (rel: string, content: string) => {
    mkdirSync(join(proj, rel, '..'), { recursive: true });
    writeFileSync(join(proj, rel), content);
  };
  write('index.html', '<html><body><a href="docs.a.org/index.html">docs.a.org</a> mirrored by HTTrack</body></html>');
  write('hts-log.txt', 'HTTrack3.49 launched');
  write('hts-cache/new.txt', 'statuscode\tsize\turl');
  write('hts-cache/doit.log', '-O proj');
  write('backblue.gif', 'GIF89a');
  write('docs.a.org/index.html', '<!-- Mirrored from docs.a.org/ by HTTrack Website Copier/3.x --><p>home</p><a href="../127.0.0.1_8102/guide/a.html">b</a>');
  write('127.0.0.1_8102/guide/a.html', '<p>a</p>');
  // a run stopped midway leaves pages half fetched
  write('127.0.0.1_8102/guide/b.html.tmp', '<p>half a pa');
  write('127.0.0.1_8102/guide/c.delayed', '<p>c</p>');
  const warnings: ReadError[] = [];
  const skips: SkipEvent[] = [];
  const docs: Document[] = [];
  for await (const d of readFolder(proj, { onWarning: (w) => warnings.push(w), onSkip: (s) => skips.push(s) })) docs.push(d);
  assert.equal(docs.map((d) => d.url), ['http://127.0.0.1:8102/guide/a.html', 'http://docs.a.org/']);
  assert.equal(docs[1].links, ['http://127.0.0.1:8102/guide/a.html'], "a link into another host's folder names that host");
  assert.equal(warnings, []);
  assert.equal(skips.map((s) => [s.reason, s.location.slice(proj.length)]), [['other', '/127.0.0.1_8102/guide/b.html.tmp'], ['other', '/127.0.0.1_8102/guide/c.delayed']]);
  done();
});

test.run();
