/**
 * The slow, obvious twin of the content-mode kernel (assembly/template.ts), straight from
 * docs/FORMATS.md "Content mode": a page is cut into blocks at block-level tags; each block
 * keeps its canonical tokens and how many of them sit inside links (<a>); the page title is
 * not content. A block is template when its fingerprint is in the host's template table; it is
 * link-heavy when more than the link-density limit of its tokens are link text; the content is
 * the other blocks' tokens, in order, with the link-heavy ones kept on a page that would
 * otherwise have too little content.
 */
import { mixRef, rabinRef, rabinWordsRef } from './rabin.js';
import { markupEnd, tokensRef } from './tokens.js';

/** Tags that start or end a block (opening or closing, any attributes). */
export const BLOCK_TAGS = new Set(('address article aside blockquote body br button caption center dd details dialog dir div dl dt '
  + 'fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li main menu '
  + 'nav noscript ol optgroup option p pre section select summary table tbody td textarea tfoot th thead title tr ul').split(' '));

/** One block: its canonical tokens and how many of them are link text. */
export interface BlockRef {
  tokens: string[];
  links: number;
}

const isAlpha = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isAlnum = (c: number) => isAlpha(c) || (c >= 0x30 && c <= 0x39);

/** The blocks of a page with at least one token, in order; title text is dropped. */
export function blocksRef(doc: Uint8Array | string): BlockRef[] {
  return walkRef(doc).blocks;
}

/** A page's blocks (as blocksRef) and its title's tokens. */
function walkRef(doc: Uint8Array | string): { blocks: BlockRef[]; title: string[] } {
  const titleTokens: string[] = [];
  const text = typeof doc === 'string' ? doc : new TextDecoder().decode(doc);
  const cps = Array.from(text, (c) => c.codePointAt(0)!);
  const blocks: BlockRef[] = [];
  let cur: BlockRef = { tokens: [], links: 0 };
  let run: number[] = [];
  let link = 0, title = false;
  const flushRun = () => {
    if (run.length === 0) return;
    const t = tokensRef(String.fromCodePoint(...run));
    run = [];
    if (title) { titleTokens.push(...t); return; }
    cur.tokens.push(...t);
    if (link > 0) cur.links += t.length;
  };
  const closeBlock = () => {
    if (cur.tokens.length) blocks.push(cur);
    cur = { tokens: [], links: 0 };
  };
  let i = 0;
  while (i < cps.length) {
    if (cps[i] !== 0x3c) { run.push(cps[i++]); continue; }
    const j = markupEnd(cps, i);
    if (j < 0) { run.push(cps[i++]); continue; }
    flushRun();
    let q = i + 1;
    const closing = cps[q] === 0x2f;
    if (closing) q++;
    let name = '';
    if (isAlpha(cps[q])) while (q < cps.length && isAlnum(cps[q])) name += String.fromCharCode(cps[q++] | 0x20);
    if (BLOCK_TAGS.has(name)) closeBlock();
    if (name === 'a') link = closing ? Math.max(0, link - 1) : link + 1;
    if (name === 'title') title = !closing;
    i = j;
  }
  flushRun();
  closeBlock();
  return { blocks, title: titleTokens };
}

/** The first word of a content-text fingerprint: "contents". */
export const CONTENT_TEXT_MARK = 0x636f6e74656e7473n;

/**
 * The shingle fingerprint a content sketch gives a page with too little content, its title and
 * content's: Rabin over the words CONTENT_TEXT_MARK, the title's token fingerprints,
 * CONTENT_TEXT_MARK and the content tokens' (contentTokensRef); 0n without content tokens or with
 * fewer than 8 title and content tokens together.
 */
export function contentTextFingerprintRef(doc: Uint8Array | string, template: Set<bigint>, linkPermille: number, minContent: number): bigint {
  const { title } = walkRef(doc);
  const content = contentTokensRef(doc, template, linkPermille, minContent);
  if (content.length === 0 || title.length + content.length < 8) return 0n;
  const fp = (t: string) => rabinRef(utf8.encode(t));
  return rabinWordsRef([CONTENT_TEXT_MARK, ...title.map(fp), CONTENT_TEXT_MARK, ...content.map(fp)]);
}

/** The first word of a page-text fingerprint: "pagetext". */
export const PAGE_TEXT_MARK = 0x7061676574657874n;

/**
 * The lexical fingerprint a content sketch gives a page with too little content, its whole
 * text's: Rabin over the words PAGE_TEXT_MARK, the title's token fingerprints, PAGE_TEXT_MARK and
 * every block's token fingerprints; 0n for a page without tokens.
 */
export function pageTextFingerprintRef(doc: Uint8Array | string): bigint {
  const { blocks, title } = walkRef(doc);
  const body = blocks.flatMap((b) => b.tokens);
  if (title.length === 0 && body.length === 0) return 0n;
  const fp = (t: string) => rabinRef(utf8.encode(t));
  return rabinWordsRef([PAGE_TEXT_MARK, ...title.map(fp), PAGE_TEXT_MARK, ...body.map(fp)]);
}

const utf8 = new TextEncoder();

/** The seed of the block fingerprint's mixer: "blocks\0\0". */
export const BLOCK_SEED = 0x626c6f636b730000n;

/** A block's fingerprint: its tokens' Rabin fingerprints folded with the mixer, h ← π_B(h ⊕ t) from h = 0. */
export function blockFingerprintRef(b: BlockRef): bigint {
  let h = 0n;
  for (const t of b.tokens) h = mixRef(h ^ rabinRef(utf8.encode(t)), BLOCK_SEED);
  return h;
}

/** True when a block is link text beyond the limit (per mille): links · 1000 > tokens · limit. */
export function linkHeavyRef(b: BlockRef, permille: number): boolean {
  return b.links * 1000 > b.tokens.length * permille;
}

/**
 * The content tokens of a page: blocks not in `template` (block fingerprints) and not link-heavy;
 * when those are fewer than `minContent` tokens, the link-heavy blocks count as content too (a
 * page of links).
 */
export function contentTokensRef(doc: Uint8Array | string, template: Set<bigint>, linkPermille: number, minContent: number): string[] {
  const kept = blocksRef(doc).filter((b) => !(template.size && template.has(blockFingerprintRef(b))));
  const strict = kept.filter((b) => !linkHeavyRef(b, linkPermille)).flatMap((b) => b.tokens);
  return strict.length >= minContent ? strict : kept.flatMap((b) => b.tokens);
}
