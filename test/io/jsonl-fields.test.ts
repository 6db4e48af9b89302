// The JSONL fast path against JSON.parse + TextEncoder on random records: every line it reads gives
// exactly what the slow path gives (the page's UTF-8 bytes, the small fields), every line JSON.parse
// refuses is left to the slow path, and ordinary records do take it. Then whole lines: the fields
// (or the error) a line gives are the same with the fast path as with JSON.parse alone.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFields } from '../../src/io/jsonl-fields.js';
import { parseJsonlLine, type Fields } from '../../src/io/jsonl.js';
import { resolveReadOptions } from '../../src/io/options.js';
import { rng } from '../helpers/random.js';

const utf8 = new TextEncoder();
const PAGE_KEYS = ['html', 'text'];
const WANTED = ['url', 'id', 'date', 'ip'];

/** A random JSON string literal's inside: plain text, escapes, non-ASCII, astral, lone surrogates; sometimes invalid. */
function stringBody(r: () => number, bad: boolean): string {
  const parts: string[] = [];
  const n = Math.floor(r() * 40);
  for (let i = 0; i < n; i++) {
    const x = r();
    if (x < 0.4) parts.push('<p class=\\"a\\">word ' + Math.floor(r() * 1000) + '</p>');
    else if (x < 0.5) parts.push(['\\n', '\\t', '\\r', '\\b', '\\f', '\\/', '\\\\', '\\"'][Math.floor(r() * 8)]);
    else if (x < 0.6) parts.push(`\\u${Math.floor(r() * 0x10000).toString(16).padStart(4, '0')}`);
    else if (x < 0.65) parts.push('\\ud83d\\ude00');
    else if (x < 0.7) parts.push(['\\ud800', '\\udc00x', '\\ud83d\\u0041', '\\uDBFF\\uDFFF'][Math.floor(r() * 4)]);
    else if (x < 0.8) parts.push(['é', '東京', '😀', 'ΣΊΣΥΦΟΣ', '\u00a0'][Math.floor(r() * 5)]);
    else parts.push(' plain text ');
  }
  if (bad) parts.splice(Math.floor(r() * (parts.length + 1)), 0, ['\t', '\\x', '\\u12', '\u0001', '\\'][Math.floor(r() * 5)]);
  return parts.join('');
}

/** A random JSONL line, as text; about one in six is not valid JSON. */
function randomLine(r: () => number): string {
  const keys = ['url', 'html', 'text', 'date', 'ip', 'id', 'meta', 'lang', 'score'];
  const fields: string[] = [];
  const n = 1 + Math.floor(r() * 6);
  // distinct keys, now and then one given twice or spelt with an escape
  const order = keys.map((k) => [r(), k] as const).sort((a, b) => a[0] - b[0]).map(([, k]) => k);
  for (let i = 0; i < n; i++) {
    const k = r() < 0.03 ? 'u\\u0072l' : r() < 0.03 ? order[0] : order[i];
    const x = r();
    const v = x < 0.6 ? `"${stringBody(r, r() < 0.05)}"` : x < 0.7 ? String(Math.floor(r() * 1e6) / 100) : x < 0.75 ? ['true', 'false', 'null', 'tru', '1e', '-0'][Math.floor(r() * 6)]
      : x < 0.8 ? ['{"a": [1, "b"]}', '{"a": [1, "b}]\\"x"], "c": {"d": null, "e": "\\u00e9{"}}', '[{"x": []}, "]"]', '{"a": [1,}', '{"a": {"b": 1}', '[1, 2]]'][Math.floor(r() * 6)]
      : `"http://ex.example/${Math.floor(r() * 100)}"`;
    const ws = () => (r() < 0.2 ? [' ', '\t', '  ', '\r'][Math.floor(r() * 4)] : '');
    fields.push(`${ws()}"${k}"${ws()}:${ws()}${v}${ws()}`);
  }
  if (r() < 0.5) fields.unshift(`"url": "http://site${Math.floor(r() * 5)}.example/p${Math.floor(r() * 50)}.html"`);
  const body = `{${fields.join(',')}}`;
  const y = r();
  return y < 0.03 ? body + ' x' : y < 0.05 ? body.slice(0, -1) : y < 0.07 ? '[' + body + ']' : y < 0.09 ? '   ' : y < 0.1 ? ` ${body}\t` : body;
}

test('readFields reads exactly what JSON.parse and TextEncoder give, and leaves the rest to them', () => {
  const r = rng(71);
  let fast = 0, valid = 0, plainValid = 0, plainFast = 0;
  for (let t = 0; t < 4000; t++) {
    const text = randomLine(r);
    let bytes = utf8.encode(text);
    if (t % 97 === 0) { bytes = Uint8Array.from([...bytes]); bytes[Math.floor(bytes.length / 2)] = 0xff; } // invalid UTF-8
    let expected: unknown;
    let ok = true;
    try { expected = JSON.parse(new TextDecoder().decode(bytes)); } catch { ok = false; }
    const got = readFields(bytes, PAGE_KEYS, WANTED);
    if (ok) valid++;
    const keysOf = [...text.matchAll(/"(\w+)"\s*:/g)].map((m) => m[1]);
    // nested values count: the fast path reads them too (keys inside them count as repeats here, which only drops a few)
    const plain = ok && !text.includes('u\\u0072l') && new Set(keysOf).size === keysOf.length && t % 97 !== 0
      && expected !== null && typeof expected === 'object' && !Array.isArray(expected);
    if (plain) plainValid++;
    if (!got) continue;
    fast++;
    if (plain) plainFast++;
    assert.ok(ok, `taken although JSON.parse refuses it: ${text}`);
    const o = expected as Record<string, unknown>;
    assert.ok(o !== null && typeof o === 'object' && !Array.isArray(o), text);
    const page = PAGE_KEYS.find((k) => typeof o[k] === 'string');
    assert.is(got.page?.key, page, text);
    if (page) assert.equal(Array.from(got.page!.bytes), Array.from(utf8.encode(o[page] as string)), text);
    for (const k of Object.keys(o)) {
      if (PAGE_KEYS.includes(k) && typeof o[k] === 'string') continue;
      assert.ok(got.values.has(k), `${k} in ${text}`);
      if (WANTED.includes(k) || typeof o[k] !== 'string' || (o[k] as string).length < 1000) assert.equal(got.values.get(k), o[k], `${k} in ${text}`);
      else assert.type(got.values.get(k), 'string');
    }
  }
  assert.ok(valid > 2000 && fast > 1500, `${valid} valid, ${fast} read fast (${plainValid} valid without escaped or repeated keys)`);
  assert.is(plainFast, plainValid, 'every plain valid record takes the fast path');
});

test('a JSONL line gives the same fields or the same error with the fast path as with JSON.parse alone', () => {
  const r = rng(72);
  const lines = Array.from({ length: 3000 }, () => randomLine(r));
  lines.push('{"url":"http://a.example/x","html":"<p>h</p>","text":"t"}', '{"id":7,"text":"seven"}', '{"url":"http://a.example/y","html":5,"text":"\\u00e9t\\u00e9"}', '{"id":"http://b.example/","html":""}');
  let fast = 0;
  for (const idField of ['url', 'id']) {
    const opts = resolveReadOptions({ idField }, 'test');
    for (const text of lines) {
      const line = { bytes: utf8.encode(text), text };
      const a = parseJsonlLine(line, opts, true), b = parseJsonlLine(line, opts, false);
      if (a !== null && typeof a === 'object') { fast++; assert.equal({ ...a, body: Array.from(a.body) }, { ...(b as Fields), body: Array.from((b as Fields).body) }, text); }
      else assert.equal(a, b, text);
    }
  }
  assert.ok(fast > 500, `${fast} lines gave documents`);
});

test.run();
