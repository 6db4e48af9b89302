/**
 * A page's visible text with its punctuation, for sentence splitting: the core's canonical text
 * drops periods, which Definition 1 needs. HTML goes through a linear scan (graph/html-scan:
 * entities decoded, script, style and other non-text elements dropped, a space at every tag so
 * words of adjacent blocks do not join); other text types are taken as they are.
 */
import { utf8Bytes, type Document } from '../graph/document.js';
import { scanHtml } from '../graph/html-scan.js';

// Elements whose content is never shown as text.
const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'svg', 'math', 'object', 'iframe']);
// Elements that have no end tag (HTML §13.1.2): never open.
const VOID = new Set(['area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'image', 'img', 'input', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
// An end tag closes the nearest open element of its name within this many from the top; past it,
// it is a stray end tag. Real pages match within a few; the bound keeps hostile ones linear.
const MAX_CLOSE_SEARCH = 1024;

const utf8 = new TextDecoder();

/**
 * Takes HTML; returns its visible text (tags become spaces, entities decoded). An end tag closes
 * the open elements above its own, as browsers do; `<body>` closes an unclosed `<head>`. Linear in
 * the input, whatever the nesting depth.
 */
export function htmlText(html: string): string {
  const parts: string[] = [];
  const open: string[] = [];
  let hidden = 0;
  const pop = () => {
    if (HIDDEN.has(open.pop()!)) hidden--;
  };
  scanHtml(html, {
    onopentag(name, _attribs, selfClosing) {
      parts.push(' ');
      if (VOID.has(name) || (selfClosing && (name === 'svg' || name === 'math'))) return;
      if (name === 'body') while (open.length > 0 && (open[open.length - 1] === 'head' || open[open.length - 1] === 'script')) pop();
      open.push(name);
      if (HIDDEN.has(name)) hidden++;
    },
    onclosetag(name) {
      parts.push(' ');
      const stop = Math.max(0, open.length - MAX_CLOSE_SEARCH);
      for (let i = open.length - 1; i >= stop; i--) {
        if (open[i] !== name) continue;
        while (open.length > i) pop();
        break;
      }
    },
    ontext(text) {
      if (hidden === 0) parts.push(text);
    },
  });
  return parts.join('');
}

/** Takes a document; returns its visible text (HTML unless its content type says another text type). */
export function pageText(doc: Document): string {
  const text = utf8.decode(utf8Bytes(doc));
  const type = doc.contentType ?? 'text/html';
  return type === 'text/html' || type === 'application/xhtml+xml' ? htmlText(text) : text;
}
