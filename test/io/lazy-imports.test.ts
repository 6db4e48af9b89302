// warcio (and the 400 KB of CommonJS it brings: hash-wasm, pako) is imported with the first WARC
// response parsed, not when the readers or a worker thread's script are imported: each worker and
// every crawl without WARC files would otherwise scan and compile it at start. Checked in a fresh
// process, both ways: not loaded after importing the readers and the worker side, loaded once a
// WARC file has been read (so the probe can see it).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { httpResponse, tempDir } from './fixtures.js';

const src = (p: string) => JSON.stringify(pathToFileURL(join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..', 'src', p)).href);

test('warcio is loaded by the first WARC record read, not by importing the readers or the worker side', () => {
  const { dir, cleanup } = tempDir();
  try {
    const warc = join(dir, 'one.warc');
    writeFileSync(warc, httpResponse('http://example.com/', '<p>one page</p>'));
    const script = join(dir, 'probe.mts');
    writeFileSync(script, `
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const loaded = () => Object.keys(require.cache).filter((k) => /[\\\\/](hash-wasm|pako)[\\\\/]/.test(k)).length;
await import(${src('worker-node.ts')});
await import(${src('io/read-back.ts')});
const { readCrawl } = await import(${src('io/crawl.ts')});
const before = loaded();
const urls = [];
for await (const d of readCrawl(${JSON.stringify(warc)})) urls.push(d.url);
console.log(JSON.stringify({ before, after: loaded(), urls }));
`);
    const r = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' });
    assert.is(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!);
    assert.equal(out.urls, ['http://example.com/'], 'the WARC file is read');
    assert.is(out.before, 0, 'no warcio dependency loaded before a WARC record is read');
    assert.ok(out.after > 0, 'warcio\'s dependencies are loaded once a record is read (the probe sees them)');
  } finally {
    cleanup();
  }
});

test.run();
