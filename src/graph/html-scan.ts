/**
 * A linear scan of HTML for the two things read from pages outside the WebAssembly canonicalizer:
 * visible text (with its punctuation) and link attributes. It drives htmlparser2's Tokenizer (the
 * part of htmlparser2 that is linear: states, raw-text elements, entities) with its own callbacks
 * instead of htmlparser2's Parser, whose open-element stack is shifted and unshifted at its front
 * on every tag: quadratic in the nesting depth (10^5 nested `<div>`s took seconds, 10^6 minutes).
 * No tree is built; nothing here grows with the nesting depth but a counter.
 */
import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

/** What a scan reports: start tags with their attributes (names lowercased), end tags, text (entities decoded). */
export interface HtmlEvents {
  /** A start tag; `selfClosing` when written `<x/>` (which HTML ignores outside SVG and MathML). */
  onopentag?(name: string, attribs: Record<string, string>, selfClosing: boolean): void;
  onclosetag?(name: string): void;
  ontext?(text: string): void;
}

/**
 * Takes HTML and event callbacks; calls them in document order in one pass, in time linear in the
 * input. Attributes are collected only when `onopentag` is given; the first of a repeated attribute wins.
 */
export function scanHtml(html: string, events: HtmlEvents): void {
  let tagName = '';
  let attribs: Record<string, string> = {};
  let attribName = '';
  let attribValue = '';
  const wantAttribs = events.onopentag !== undefined;
  const slice = (start: number, end: number) => html.slice(start, end);
  const callbacks: TokenizerCallbacks = {
    onattribdata(start, end) {
      if (wantAttribs) attribValue += slice(start, end);
    },
    onattribentity(codepoint) {
      if (wantAttribs) attribValue += String.fromCodePoint(codepoint);
    },
    onattribend() {
      if (wantAttribs && !Object.hasOwn(attribs, attribName)) attribs[attribName] = attribValue;
      attribValue = '';
    },
    onattribname(start, end) {
      attribName = slice(start, end).toLowerCase();
      attribValue = '';
    },
    oncdata() {},
    onclosetag(start, end) {
      events.onclosetag?.(slice(start, end).toLowerCase());
    },
    oncomment() {},
    ondeclaration() {},
    onend() {},
    onopentagend() {
      events.onopentag?.(tagName, attribs, false);
      attribs = {};
    },
    onopentagname(start, end) {
      tagName = slice(start, end).toLowerCase();
      attribs = {};
    },
    onprocessinginstruction() {},
    onselfclosingtag() {
      events.onopentag?.(tagName, attribs, true);
      attribs = {};
    },
    ontext(start, end) {
      events.ontext?.(slice(start, end));
    },
    ontextentity(codepoint) {
      events.ontext?.(String.fromCodePoint(codepoint));
    },
  };
  const tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: true }, callbacks);
  tokenizer.write(html);
  tokenizer.end();
}
