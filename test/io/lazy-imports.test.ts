// warcio (and the 400 KB of CommonJS it brings: hash-wasm, pako) is not loaded by reading: the WARC
// reader parses a response's HTTP head itself (src/io/http-head.ts), so neither the readers, nor a
// worker thread's script, nor reading a WARC file makes Node scan and compile it. Checked in a
// fresh process: not loaded after importing the readers and the worker side, nor after a WARC file
// has been read; loaded once imported on purpose (so the probe can see it).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { httpResponse, tempDir } from './fixtures.js';

const src = (p: string) => JSON.stringify(pathToFileURL(join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..', 'src', p)).href);

test('warcio is loaded neither by importing the readers and the worker side nor by reading a WARC file', () => {
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
const after = loaded();
await import(${JSON.stringify(pathToFileURL(createRequire(import.meta.url).resolve('warcio')).href)});
console.log(JSON.stringify({ before, after, probe: loaded(), urls }));
`);
    const r = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' });
    assert.is(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!);
    assert.equal(out.urls, ['http://example.com/'], 'the WARC file is read');
    assert.is(out.before, 0, 'no warcio dependency loaded before a WARC record is read');
    assert.is(out.after, 0, 'no warcio dependency loaded by reading a WARC file');
    assert.ok(out.probe > 0, 'warcio\'s dependencies are seen once it is imported (the probe works)');
  } finally {
    cleanup();
  }
});

test.run();
