// sniffCharset: undeclared pages that are not UTF-8 get the charset whose decoding looks like text
// of its language; undeclared UTF-8 stays UTF-8; and the readers use it (a wget mirror keeps no
// HTTP headers, so a legacy site's pages are often undeclared once mirrored).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import iconv from 'iconv-lite';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sniffCharset } from '../../src/io/charset-sniff.js';
import { detectCharset } from '../../src/io/charset.js';
import { fileBytes } from '../../src/io/file-bytes.js';
import { readFolder } from '../../src/io/folder.js';
import { tempDir } from './fixtures.js';
import { CASES, page, TEXTS } from './legacy-texts.js';
import { encodeIso2022jp } from '../../eval/manuals/iso-2022-jp.js';
import type { Document } from '../../src/graph/document.js';

test('undeclared legacy pages: each charset is found from the text it decodes to', () => {
  for (const [lang, charset, expected] of CASES) {
    const bytes = iconv.encode(page(TEXTS[lang]), charset);
    assert.is(sniffCharset(bytes), expected, `${lang} in ${charset}`);
    // and the decoding is the page's text
    assert.ok(new TextDecoder(expected).decode(bytes).includes(TEXTS[lang].slice(0, 20)), `${lang} in ${charset} decodes`);
  }
});

test('undeclared UTF-8 stays UTF-8: ASCII, every language, a stray invalid byte among many good sequences', () => {
  const enc = new TextEncoder();
  assert.is(sniffCharset(enc.encode(page('plain ASCII words only'))), 'utf-8');
  for (const text of Object.values(TEXTS)) assert.is(sniffCharset(enc.encode(page(text))), 'utf-8');
  const good = enc.encode(page(TEXTS.fr));
  const stray = new Uint8Array(good.length + 1);
  stray.set(good.subarray(0, 100)); stray[100] = 0xff; stray.set(good.subarray(100), 101);
  assert.is(sniffCharset(stray), 'utf-8');
  // a sequence cut at the 64 KB mark is not evidence against UTF-8
  const long = enc.encode('é'.repeat(40000));
  assert.is(sniffCharset(long.subarray(0, 65537)), 'utf-8');
  assert.is(sniffCharset(new Uint8Array(0)), 'utf-8');
});

test('text without spaces is not read as an alphabet: rare Han characters whose GBK bytes are common Russian letters in windows-1251', () => {
  // lead and trail bytes from о е а и н т с р (windows-1251): level-2 Han characters in GBK
  const letters = [0xee, 0xe5, 0xe0, 0xe8, 0xed, 0xf2, 0xf1, 0xf0];
  const bytes: number[] = [];
  for (let i = 0; i < 600; i++) bytes.push(letters[i % 8], letters[(i * 3 + 1) % 8]);
  const html = Uint8Array.from([...new TextEncoder().encode('<p>'), ...bytes, ...new TextEncoder().encode('</p>')]);
  assert.ok(new TextDecoder('windows-1251').decode(html).includes('оеаинтср'.slice(0, 2)), 'the bytes are Russian letters in windows-1251');
  assert.is.not(sniffCharset(html), 'windows-1251');
});

test('a page that is no language the sniffer knows is windows-1252, the HTML standard\'s default', () => {
  const noise = Uint8Array.from({ length: 3000 }, (_, i) => (i % 5 === 4 ? 0x20 : 0x80 + ((i * 37) % 0x20)));
  assert.is(sniffCharset(noise), 'windows-1252');
});

test('detectCharset: a declaration wins; undeclared bytes are sniffed (from: sniffed) only when they are not UTF-8', () => {
  const sjis = iconv.encode(page(TEXTS.ja), 'Shift_JIS');
  assert.equal(detectCharset(sjis), { charset: 'shift_jis', from: 'sniffed' });
  assert.equal(detectCharset(sjis, 'EUC-JP'), { charset: 'euc-jp', from: 'header' });
  const declared = iconv.encode(page(TEXTS.ja).replace('<head>', '<head><meta charset="euc-jp">'), 'EUC-JP');
  assert.equal(detectCharset(declared), { charset: 'euc-jp', from: 'meta' });
  assert.equal(detectCharset(new TextEncoder().encode(page(TEXTS.ja))), { charset: 'utf-8', from: 'default' });
});

test('a page declared UTF-8 whose bytes mostly are not is sniffed; bytes that are UTF-8 keep the declaration', () => {
  const withMeta = (text: string) => page(text).replace('<head>', '<head><meta charset="utf-8">');
  const sjis = iconv.encode(withMeta(TEXTS.ja), 'Shift_JIS');
  assert.equal(detectCharset(sjis), { charset: 'shift_jis', from: 'sniffed' });
  const euckr = iconv.encode(page(TEXTS.ko), 'EUC-KR');
  assert.equal(detectCharset(euckr, 'UTF-8'), { charset: 'euc-kr', from: 'sniffed' });
  assert.equal(detectCharset(euckr, 'UTF-8', false), { charset: 'utf-8', from: 'header' }, 'bytes known to be UTF-8 are not looked at');
  assert.equal(detectCharset(new TextEncoder().encode(withMeta(TEXTS.ja))), { charset: 'utf-8', from: 'meta' });
  // a UTF-8 page with one stray byte keeps its declaration
  const good = new TextEncoder().encode(withMeta(TEXTS.fr));
  const stray = Uint8Array.from([...good.subarray(0, 200), 0xe9, ...good.subarray(200)]);
  assert.equal(detectCharset(stray), { charset: 'utf-8', from: 'meta' });
});

test('undeclared ISO-2022-JP (7-bit, read as UTF-8 it is ASCII gibberish) is found by its escapes', () => {
  const bytes = encodeIso2022jp(page(TEXTS.ja));
  assert.ok(bytes.every((b) => b < 0x80));
  assert.is(new TextDecoder('iso-2022-jp').decode(bytes), page(TEXTS.ja), 'the test encoder round-trips');
  assert.is(sniffCharset(bytes), 'iso-2022-jp');
  assert.equal(detectCharset(bytes), { charset: 'iso-2022-jp', from: 'sniffed' });
  // an escape that is not into JIS X 0208, or bytes above 0x7f, are not ISO-2022-JP
  const enc = new TextEncoder();
  assert.is(sniffCharset(enc.encode(page('a terminal escape \u001b[31m in plain text'))), 'utf-8');
  assert.is(sniffCharset(enc.encode(page(`${TEXTS.fr} \u001b$B`))), 'utf-8');
});

test('the readers decode an undeclared legacy page as its UTF-8 copy reads', async () => {
  const { dir, cleanup } = tempDir();
  const put = (rel: string, bytes: Uint8Array) => { mkdirSync(join(dir, rel, '..'), { recursive: true }); writeFileSync(join(dir, rel), bytes); };
  put('utf.example/ja.html', new TextEncoder().encode(page(TEXTS.ja)));
  put('sjis.example/ja.html', iconv.encode(page(TEXTS.ja), 'Shift_JIS'));
  put('koi.example/ru.html', iconv.encode(page(TEXTS.ru), 'KOI8-R'));
  put('jis.example/ja.html', encodeIso2022jp(page(TEXTS.ja)));
  put('utf.example/ru.html', new TextEncoder().encode(page(TEXTS.ru)));
  const docs: Document[] = [];
  for await (const d of readFolder(dir)) docs.push(d);
  const text = (host: string, name: string) => {
    const d = docs.find((x) => x.url === `http://${host}/${name}`)!;
    return new TextDecoder().decode(d.utf8 ?? d.bytes);
  };
  assert.is(text('sjis.example', 'ja.html'), text('utf.example', 'ja.html'));
  assert.is(text('koi.example', 'ru.html'), text('utf.example', 'ru.html'));
  assert.is(text('jis.example', 'ja.html'), text('utf.example', 'ja.html'));
  assert.is(docs.find((x) => x.url === 'http://sjis.example/ja.html')!.charset, 'shift_jis');
  const fb = fileBytes('ru.html', iconv.encode(page(TEXTS.ru), 'windows-1251'));
  assert.ok(!('skipped' in fb) && fb.charset === 'windows-1251' && new TextDecoder().decode(fb.bytes).includes(TEXTS.ru.slice(0, 30)));
  cleanup();
});

test.run();
