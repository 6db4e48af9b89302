/**
 * The linear HTML scan against htmlparser2's Parser (the slow, obvious twin: a tree builder) on
 * random markup: the same visible text (up to whitespace) and the same link attributes; and deep
 * nesting, stray end tags and unclosed hidden elements handled without growing work per tag.
 */
import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { scanLinkAttributes } from '../../src/io/links.js';
import { htmlText } from '../../src/study/page-text.js';

const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'svg', 'math', 'object', 'iframe']);

/** The text the Parser-based implementation gave (the previous page-text.ts). */
function parserText(html: string): string {
  const parts: string[] = [];
  let hidden = 0;
  const parser = new Parser({
    onopentag(name) { if (HIDDEN.has(name)) hidden++; parts.push(' '); },
    onclosetag(name) { if (HIDDEN.has(name) && hidden > 0) hidden--; parts.push(' '); },
    ontext(text) { if (hidden === 0) parts.push(text); },
  }, { decodeEntities: true, lowerCaseTags: true });
  parser.end(html);
  return parts.join('');
}

function parserLinks(html: string): string[] {
  const out: string[] = [];
  const parser = new Parser({ onopentag(name, a) { if ((name === 'a' || name === 'area') && a.href !== undefined) out.push(a.href); if ((name === 'frame' || name === 'iframe') && a.src !== undefined) out.push(a.src); } },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  parser.end(html);
  return out;
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

// Well-nested markup: the cases where the tree builder's implied closes change nothing.
const node: fc.Memo<string> = fc.memo((depth) =>
  depth <= 1
    ? fc.oneof(fc.constantFrom('word', 'a.b', '&amp;', '&eacute;t&eacute;', 'x &lt; y', ' ', '<br>', '<img src="i.png">'), fc.stringMatching(/^[a-z .]{0,12}$/))
    : fc.oneof(
        node(depth - 1),
        fc.tuple(fc.constantFrom('div', 'p', 'span', 'b', 'SCRIPT', 'style', 'title', 'noscript', 'section', 'em'), fc.array(node(depth - 1), { maxLength: 4 })).map(([t, kids]) => `<${t}>${kids.join('')}</${t}>`),
        fc.tuple(fc.constantFrom('a', 'area', 'iframe', 'frame'), fc.webUrl(), node(depth - 1)).map(([t, u, kid]) => `<${t} ${t === 'a' || t === 'area' ? 'HREF' : 'src'}="${u.replace(/&/g, '&amp;')}">${kid}${t === 'area' || t === 'frame' ? '' : `</${t}>`}`),
      ));

test('visible text and links equal the tree builder on random well-nested HTML', () => {
  fc.assert(fc.property(node(5), (html) => {
    assert.is(squash(htmlText(html)), squash(parserText(html)), html);
    assert.equal(scanLinkAttributes(html).hrefs, parserLinks(html), html);
  }), { numRuns: 400, seed: 9 });
});

test('unclosed hidden elements are closed by the end tag of an element around them; <body> closes <head>', () => {
  assert.is(squash(htmlText('<div><object>hidden</div>shown')), 'shown');
  assert.is(squash(htmlText('<html><head><title>t</title><body>text')), 'text');
  assert.is(squash(htmlText('<svg/>after')), 'after');
  assert.is(squash(htmlText('<p>a</x></y>b</p>')), 'a b');
});

test('deep nesting and stray end tags: the text comes out (10^5 levels; timings in the README)', () => {
  const depth = 100_000;
  assert.is(squash(htmlText('<div>'.repeat(depth) + 'deep text' + '</div>'.repeat(depth))), 'deep text');
  assert.is(squash(htmlText('<span>'.repeat(depth) + 'kept' + '</x>'.repeat(depth))), 'kept');
  assert.equal(scanLinkAttributes('<div>'.repeat(depth) + '<a href="/x">x</a>' + '</div>'.repeat(depth)).hrefs, ['/x']);
});

test.run();
