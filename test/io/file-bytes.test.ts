// fileBytes (what the browser demo applies to dropped files) against the Node folder reader on the
// same files: the same documents with the same bytes to sketch, the same files skipped as binary.
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Document } from '../../src/graph/document.js';
import { fileBytes } from '../../src/io/file-bytes.js';
import { readFolder } from '../../src/io/folder.js';
import type { SkipEvent } from '../../src/io/options.js';
import { tempDir } from './fixtures.js';

async function compare(root: string) {
  const docs: Document[] = [], skips: SkipEvent[] = [];
  for await (const d of readFolder(root, { onSkip: (s) => skips.push(s), onError: () => {} })) docs.push(d);
  for (const d of docs) {
    const r = fileBytes(d.source!, readFileSync(d.source!));
    assert.ok(!('skipped' in r), `${d.source} is read`);
    if ('skipped' in r) continue;
    assert.ok(Buffer.from(r.bytes).equals(Buffer.from(d.utf8 ?? d.bytes)), `${d.source}: same bytes`);
    assert.is(r.contentType, d.contentType, d.source);
  }
  const binary = skips.filter((s) => s.reason === 'binary');
  for (const s of binary) {
    const r = fileBytes(s.location!, readFileSync(s.location!));
    assert.ok('skipped' in r, `${s.location} is skipped`);
  }
  return { docs: docs.length, binary: binary.length };
}

test('the sample crawl: same documents, same bytes, same binaries skipped', async () => {
  const n = await compare('sample');
  assert.ok(n.docs > 10 && n.binary > 0, JSON.stringify(n));
});

test('charsets and sniffed binaries: windows-1252 and Shift_JIS pages re-encoded, NUL-laden text skipped', async () => {
  const { dir, cleanup } = tempDir();
  const put = (rel: string, content: string | Uint8Array) => {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), content);
  };
  put('a.example/latin.html', Uint8Array.from([...Buffer.from('<meta charset="windows-1252"><p>caf'), 0xe9, ...Buffer.from(' cr'), 0xe8, ...Buffer.from('me</p>')]));
  put('a.example/sjis.htm', Uint8Array.from([...Buffer.from('<html><meta http-equiv="Content-Type" content="text/html; charset=shift_jis"><p>'), 0x93, 0xfa, 0x96, 0x7b, ...Buffer.from('</p>')]));
  put('a.example/utf8.html', '<p>déjà vu</p>');
  put('a.example/plain.txt', 'just text');
  put('a.example/nul.txt', Uint8Array.from([104, 105, 0, 0, 1, 2]));
  put('a.example/noext', '<!doctype html><p>sniffed html</p>');
  put('a.example/img.png', 'not really a png');
  const n = await compare(dir);
  assert.equal(n, { docs: 5, binary: 2 });
  const latin = fileBytes('latin.html', readFileSync(join(dir, 'a.example/latin.html')));
  assert.ok(!('skipped' in latin) && latin.charset === 'windows-1252' && new TextDecoder().decode(latin.bytes).includes('café crème'));
  cleanup();
});

test.run();
