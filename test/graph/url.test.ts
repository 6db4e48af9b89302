import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hostOfUrl, normalizeUrl } from '../../src/graph/url.js';

const cases: Array<[string, string | undefined]> = [
  ['HTTP://Example.COM/a', 'http://example.com/a'],
  ['http://example.com', 'http://example.com/'],
  ['http://example.com:80/x', 'http://example.com/x'],
  ['https://example.com:443/x', 'https://example.com/x'],
  ['http://example.com:8080/x', 'http://example.com:8080/x'],
  ['http://example.com/a/./b/../c', 'http://example.com/a/c'],
  ['http://example.com/a#frag', 'http://example.com/a'],
  ['http://example.com/a#', 'http://example.com/a'],
  ['http://example.com/a?', 'http://example.com/a'],
  ['http://example.com/a?b=1&c=2#x', 'http://example.com/a?b=1&c=2'],
  ['http://example.com/%7euser/%3f', 'http://example.com/~user/%3F'],
  ['http://example.com/p?q=%41%2f', 'http://example.com/p?q=A%2F'],
  ['http://example.com/a b', 'http://example.com/a%20b'],
  ['  http://example.com/trim  ', 'http://example.com/trim'],
  ['not a url', undefined],
  ['http://', undefined],
];

test('normalizeUrl: lowercase scheme/host, default port, fragment, dot segments, escapes; query kept', () => {
  for (const [input, expected] of cases) assert.is(normalizeUrl(input), expected, input);
});

test('normalizeUrl resolves relative URLs against a base', () => {
  assert.is(normalizeUrl('../x?y#z', 'http://h.org/a/b/c'), 'http://h.org/a/x?y');
  assert.is(normalizeUrl('//other.org', 'https://h.org/'), 'https://other.org/');
});

test('normalizeUrl is idempotent', () => {
  for (const [input, expected] of cases) if (expected) assert.is(normalizeUrl(expected), expected, input);
});

test('hostOfUrl keeps a non-default port and returns "" for junk', () => {
  assert.is(hostOfUrl('http://A.org:8080/x'), 'a.org:8080');
  assert.is(hostOfUrl('http://a.org:80/x'), 'a.org');
  assert.is(hostOfUrl('junk'), '');
});

test.run();
