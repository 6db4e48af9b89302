/**
 * Page text for chunking (Section 2.1: "convert each page from its native format into simple
 * textual information", as html2ascii does): scripts, styles and comments dropped, block-level
 * tags turned into line breaks, other tags removed, entities decoded, whitespace collapsed and case
 * folded per line. Lines matter here, unlike for shingles, because the paper's chunks are lines.
 */

import { ENTITIES } from '../sketch/entities.js';

const BLOCK = /^(?:address|article|aside|blockquote|br|caption|dd|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|h[1-6]|header|hr|li|main|nav|ol|option|p|pre|section|table|tbody|td|tfoot|th|thead|title|tr|ul)$/i;

/** Takes text with character references; returns it decoded (unknown names are kept as written). */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z][a-z0-9]{1,31});?/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
    }
    const lower = ref.toLowerCase();
    const cp = ref in ENTITIES ? ENTITIES[ref] : lower in ENTITIES ? ENTITIES[lower] : undefined;
    return cp === undefined ? whole : String.fromCodePoint(cp);
  });
}

/** Takes a page (HTML or plain text); returns its non-empty text lines, whitespace collapsed and lowercased. */
export function textLines(page: string, markup: 'html' | 'text'): string[] {
  let text = page;
  if (markup === 'html') {
    text = text
      .replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
      .replace(/<(script|style|noscript|template)\b[^>]*>[\s\S]*?(?:<\/\1\s*>|$)/gi, ' ')
      .replace(/<\/?([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>/g, (_t, name: string) => (BLOCK.test(name) ? '\n' : ' '))
      .replace(/<![^>]*>/g, ' ')
      // XML declarations and processing instructions (`<?xml version="1.0" encoding="euc-jp"?>` of
      // an XHTML page): markup, not text, and a re-encoded copy changes the encoding named there.
      .replace(/<\?[^>]*>/g, ' ');
    text = decodeEntities(text);
  }
  const lines: string[] = [];
  for (const raw of text.toLowerCase().split(/\r\n|\r|\n/)) {
    // Most lines hold single spaces only: the collapsing pass is skipped for them.
    const line = (/\s\s|[^\S ]/.test(raw) ? raw.replace(/\s+/g, ' ') : raw).trim();
    if (line) lines.push(line);
  }
  return lines;
}

/** Takes text lines; returns the sentences (split after . ! ? followed by a space), across line breaks. */
export function sentences(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const s of lines.join(' ').split(/(?<=[.!?])\s+/)) {
    const t = s.trim();
    if (t) out.push(t);
  }
  return out;
}
