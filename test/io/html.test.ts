import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { canonicalCharset, charsetFromContentType, decodeHtml, metaCharset } from '../../src/io/charset.js';
import { extractLinks } from '../../src/io/links.js';
import { makeDocument } from '../../src/io/make-document.js';
import { classifyContent, looksBinary } from '../../src/io/sniff.js';
import { utf8Bytes } from '../../src/graph/document.js';
import { concat } from './fixtures.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

test('links: a href, area, frame, iframe; fragments dropped; only http(s); deduplicated in order', () => {
  const html = `<html><frameset><frame src="left.html"><frame src="right.html#top"></frameset>
    <iframe src="//cdn.org/embed"></iframe>
    <map><area href="/map?a=1&amp;b=2" shape="rect"></map>
    <A HREF="left.html">again</A> <a href="#local">self</a> <a href="mailto:x@y.org">mail</a>
    <a href="javascript:void(0)">js</a> <a>no href</a> <a href="https://S.org:443/Up">up</a>
    <a href="http://[bad">bad</a></html>`;
  assert.equal(extractLinks(html, 'http://h.org/dir/page.html'), [
    'http://h.org/dir/left.html',
    'http://h.org/dir/right.html',
    'http://cdn.org/embed',
    'http://h.org/map?a=1&b=2',
    'http://h.org/dir/page.html',
    'https://s.org/Up',
  ]);
});

test('links: the first <base href> sets the base for every link, before or after it', () => {
  const html = '<a href="a.html">a</a><base href="http://mirror.org/root/"><base href="http://ignored.org/"><a href="../b.html">b</a>';
  assert.equal(extractLinks(html, 'http://h.org/x/y.html'), ['http://mirror.org/root/a.html', 'http://mirror.org/b.html']);
  assert.equal(extractLinks('<base href="sub/"><a href="c">c</a>', 'http://h.org/x/'), ['http://h.org/x/sub/c']);
});

// "é" in windows-1252 is 0xE9.
const cafe = (head: string) => concat([enc.encode(`<html><head>${head}</head><body>caf`), Uint8Array.of(0xe9), enc.encode('</body></html>')]);

test('charset: meta charset, http-equiv, header wins over meta, BOM wins over header, UTF-8 default', () => {
  const a = decodeHtml(cafe('<meta charset="windows-1252">'));
  assert.equal([a.charset, a.from], ['windows-1252', 'meta']);
  assert.match(a.text, 'café');
  const b = decodeHtml(cafe('<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">'));
  assert.equal([b.charset, b.from], ['windows-1252', 'meta']);
  assert.match(b.text, 'café');
  const c = decodeHtml(enc.encode('<meta charset="iso-8859-2"><p>café</p>'), 'utf-8');
  assert.equal([c.charset, c.from, c.text.includes('café')], ['utf-8', 'header', true]);
  const d = decodeHtml(concat([Uint8Array.of(0xef, 0xbb, 0xbf), enc.encode('<p>é</p>')]), 'windows-1252');
  assert.equal([d.charset, d.from, d.text], ['utf-8', 'bom', '<p>é</p>']);
  const e = decodeHtml(enc.encode('<p>é</p>'));
  assert.equal([e.charset, e.from], ['utf-8', 'default']);
  // unknown labels are no declaration: the bytes are not UTF-8, so their charset is sniffed
  const f = decodeHtml(cafe('<meta charset="no-such-charset">'), 'also-bogus');
  assert.equal([f.charset, f.from], ['windows-1252', 'sniffed']);
  assert.match(f.text, 'café');
  const sjis = decodeHtml(Uint8Array.of(0x82, 0xa0), 'Shift_JIS');
  assert.equal([sjis.charset, sjis.text], ['shift_jis', 'あ']);
});

test('charset helpers', () => {
  assert.is(charsetFromContentType('text/html; Charset="UTF-8"'), 'UTF-8');
  assert.is(charsetFromContentType('text/html'), undefined);
  assert.is(canonicalCharset('latin1'), 'windows-1252');
  assert.is(canonicalCharset('x-nope'), undefined);
  assert.is(metaCharset(enc.encode('<meta charset=utf-16>')), 'utf-8');
});

test('metaCharset reads the head as TextDecoder (windows-1252) would: the same charset from any bytes around the tag', () => {
  // the slow reference: the meta scan over TextDecoder('latin1'), as browsers run it
  const RE = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([A-Za-z0-9_:.+-]+)/i;
  const reference = (b: Uint8Array) => {
    const m = RE.exec(new TextDecoder('latin1').decode(b.subarray(0, 8192)));
    const found = canonicalCharset(m?.[1]);
    return found?.startsWith('utf-16') ? 'utf-8' : found;
  };
  let seed = 12345;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) >>> 0) % n);
  const tags = ['<meta charset="iso-8859-2">', "<META http-equiv=Content-Type content='text/html; CHARSET=Shift_JIS'>", '<meta\x85charset=koi8-r>', '<meta  charset = \xa0utf-8>', '<meta data-x="\x80\x9f>" charset=big5>'];
  let found = 0;
  for (let k = 0; k < 400; k++) {
    const before = Uint8Array.from({ length: rand(200) }, () => rand(256)), after = Uint8Array.from({ length: rand(200) }, () => rand(256));
    const tag = Uint8Array.from(tags[k % tags.length], (c) => c.charCodeAt(0));
    const bytes = concat([before, tag, after]);
    const want = reference(bytes);
    if (want) found++;
    assert.is(metaCharset(bytes), want, `case ${k}`);
  }
  assert.ok(found > 100, `the tag is found in most cases (${found})`);
});

test('makeDocument: a windows-1252 page keeps raw bytes and gets a UTF-8 view', () => {
  const bytes = cafe('<meta charset="windows-1252">');
  const doc = makeDocument({ url: 'http://h.org/', bytes, mime: 'text/html', source: 't' }, true)!;
  assert.is(doc.charset, 'windows-1252');
  assert.equal(doc.bytes, bytes);
  assert.is(dec.decode(utf8Bytes(doc)), '<html><head><meta charset="windows-1252"></head><body>café</body></html>');
  const plain = makeDocument({ url: 'http://h.org/u', bytes: enc.encode('<p>é</p>'), mime: 'text/html', source: 't' }, true)!;
  assert.is(plain.utf8, undefined);
  assert.is(utf8Bytes(plain), plain.bytes);
  assert.is(plain.charset, undefined);
});

test('binary sniffing: NUL, controls + invalid UTF-8 are binary; legacy-charset text is not', () => {
  assert.ok(looksBinary(Uint8Array.of(0x41, 0x00, 0x42)));
  const noisy = Uint8Array.from({ length: 4000 }, (_, i) => ((i * 7919) % 255) + 1);
  assert.ok(looksBinary(noisy));
  const cyrillic1251 = Uint8Array.from({ length: 4000 }, (_, i) => (i % 6 === 5 ? 0x20 : 0xe0 + (i % 32)));
  assert.not.ok(looksBinary(cyrillic1251));
  assert.not.ok(looksBinary(enc.encode('plain ascii\ttext\r\n')));
  assert.not.ok(looksBinary(new Uint8Array(0)));
  assert.is(classifyContent('application/octet-stream', enc.encode('<!DOCTYPE html><p>x')), 'text/html');
  assert.is(classifyContent(undefined, enc.encode('just words')), 'text/plain');
  assert.is(classifyContent('image/png', enc.encode('text anyway')), undefined);
  // Declared HTML whose bytes are binary (a NUL run, an image named .html) is binary; UTF-16 HTML (BOM, NULs) is not.
  assert.is(classifyContent('text/html', Uint8Array.of(0, 1, 2)), undefined);
  assert.is(classifyContent('text/html', Uint8Array.from([0xff, 0xfe, ...Array.from('<p>x</p>', (c) => [c.charCodeAt(0), 0]).flat()])), 'text/html');
});

test('declared HTML with a stray NUL byte is a page (a Javadoc quoting the NUL character); a NUL run or NULs in text that is not HTML are binary', () => {
  const page = (body: string) => enc.encode(`<!DOCTYPE html>\n<html><head><title>CharUtils</title></head><body>${body}</body></html>`);
  const words = 'the null control character abbreviated NUL is quoted here '.repeat(40);
  const one = page(`<p>${words}</p><code>\0</code><p>${words}</p>`);
  assert.is(one.filter((b) => b === 0).length, 1);
  assert.ok(looksBinary(one), 'the generic sniff calls any NUL binary');
  assert.is(classifyContent('text/html', one), 'text/html');
  assert.is(classifyContent('application/xhtml+xml', one), 'text/html');
  // one NUL per KiB is allowed, more is not
  const kib = Math.floor(one.length / 1024);
  const few = page(`<p>${words}</p>${'<code>\0</code>'.repeat(Math.max(1, kib))}<p>${words}</p>`);
  assert.is(classifyContent('text/html', few), 'text/html');
  const many = page(`<p>${words}</p>${'\0'.repeat(64)}<p>${words}</p>`);
  assert.is(classifyContent('text/html', many), undefined);
  // not starting like HTML: the generic sniff decides
  assert.is(classifyContent('text/html', enc.encode(`${words}\0${words}`)), undefined);
  // undeclared bytes keep the generic rule
  assert.is(classifyContent(undefined, one), undefined);
  // declared plain text (a JSONL text field, a WARC text/plain record) may hold stray NULs too, not a run
  const text = enc.encode(`${words}\0${words}`);
  assert.is(classifyContent('text/plain', text), 'text/plain');
  assert.is(classifyContent('text/plain', enc.encode(`${words}${'\0'.repeat(64)}${words}`)), undefined);
  assert.is(classifyContent(undefined, text), undefined);
});

test.run();
