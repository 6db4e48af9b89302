// decodeText gives the Encoding Standard's text in Node as browsers do: windows-1252's bytes
// 0x80-0x9f as its index maps them (Node 20's own TextDecoder leaves them C1 controls), every
// Latin-1 label the same, other charsets as TextDecoder decodes them, and windows-1258's tone marks
// composed (NFC) as a UTF-8 page writes them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import iconv from 'iconv-lite';
import { decodeText } from '../../src/io/decode-text.js';
import { decodeHtml } from '../../src/io/charset.js';
import { TEXTS } from './legacy-texts.js';

// index-windows-1252.txt of the Encoding Standard, pointers 0-31 (bytes 0x80-0x9f)
const WHATWG_1252 = [0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178];

test('windows-1252 bytes 0x80-0x9f decode as the Encoding Standard maps them, under every Latin-1 label', () => {
  const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
  for (const label of ['windows-1252', 'latin1', 'iso-8859-1', 'us-ascii', 'cp1252']) {
    const text = decodeText(bytes, label);
    assert.is(text.length, 256, label);
    for (let b = 0; b < 256; b++) {
      const want = b >= 0x80 && b < 0xa0 ? WHATWG_1252[b - 0x80] : b;
      assert.is(text.codePointAt(b), want, `${label} byte 0x${b.toString(16)}`);
    }
  }
});

test('a page in windows-1252 with curly quotes and Š decodes to those characters, through decodeHtml', () => {
  const html = '<html><head><meta charset="windows-1252"><title>“Škoda” – 5 €</title></head><body>œuvre … Ÿ</body></html>';
  const bytes = iconv.encode(html, 'windows-1252');
  assert.ok(bytes.some((b) => b >= 0x80 && b < 0xa0), 'the page has bytes 0x80-0x9f');
  const d = decodeHtml(new Uint8Array(bytes));
  assert.is(d.charset, 'windows-1252');
  assert.is(d.text, html);
});

test('other charsets decode as TextDecoder does; windows-1258 tone marks are composed', () => {
  const bytes = Uint8Array.from({ length: 128 }, (_, i) => 0x80 + i);
  for (const label of ['windows-1250', 'windows-1251', 'iso-8859-2', 'koi8-r', 'windows-874']) {
    assert.is(decodeText(bytes, label), new TextDecoder(label).decode(bytes), label);
  }
  // TEXTS.vi is written as windows-1258 holds it (ệ as ê and a combining dot below)
  const vietnamese = TEXTS.vi.normalize('NFC');
  assert.ok(vietnamese.includes('ệ') && !TEXTS.vi.includes('ệ'));
  const encoded = new Uint8Array(iconv.encode(TEXTS.vi, 'windows-1258'));
  assert.is(new TextDecoder('windows-1258').decode(encoded), TEXTS.vi, 'TextDecoder leaves tone marks combining');
  assert.is(decodeText(encoded, 'windows-1258'), vietnamese);
});

test.run();
