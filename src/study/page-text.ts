/**
 * A page's visible text with its punctuation, for sentence splitting: the core's canonical text
 * drops periods, which Definition 1 needs. HTML goes through htmlparser2 (entities decoded, script,
 * style and other non-text elements dropped, a space at every tag so words of adjacent blocks do
 * not join); other text types are taken as they are.
 */
import { Parser } from 'htmlparser2';
import { utf8Bytes, type Document } from '../graph/document.js';

// Elements whose content is never shown as text.
const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'svg', 'math', 'object', 'iframe']);

const utf8 = new TextDecoder();

/** Takes HTML; returns its visible text (tags become spaces, entities decoded). */
export function htmlText(html: string): string {
  const parts: string[] = [];
  let hidden = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (HIDDEN.has(name)) hidden++;
        parts.push(' ');
      },
      onclosetag(name) {
        if (HIDDEN.has(name) && hidden > 0) hidden--;
        parts.push(' ');
      },
      ontext(text) {
        if (hidden === 0) parts.push(text);
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.end(html);
  return parts.join('');
}

/** Takes a document; returns its visible text (HTML unless its content type says another text type). */
export function pageText(doc: Document): string {
  const text = utf8.decode(utf8Bytes(doc));
  const type = doc.contentType ?? 'text/html';
  return type === 'text/html' || type === 'application/xhtml+xml' ? htmlText(text) : text;
}
