// Content mode (docs/FORMATS.md, "Content mode"): a page is cut into blocks at block-level
// tags; a block's tokens are the canonicalizer's, and its fingerprint folds their fingerprints
// with the mixer (h ← π_B(h ⊕ t), from h = 0; B a fixed seed): cheaper than Rabin, and only
// compared with fingerprints of other blocks. A block is template when its
// fingerprint is in its host's template table (sorted u64, learnt from the host's pages) or when
// more than the link-density limit of its tokens are link text (inside <a>); the page title is
// not content. The other blocks' tokens go, in order, to the same shingling and selection as a
// whole page: with an empty table and no link-heavy block the sketch equals the page's.
// Entry points (prefix tp_): tp_configure, tp_blocks (block fingerprints, for learning),
// tp_sketch_batch (content sketches of many documents, each against its host's table),
// tp_content_tokens (the content tokens themselves, for bags of words).
import { mix } from './mix';
import { pushWord } from './rabin';
import { canonicalRun, skipMarkup } from './canonicalize';
import { deliver, emitBegin, emitConfigure, emitCount, emitOverflow, SINK_SKETCH, SINK_TOKENS } from './emit';
import { scan3 } from './scan';
import { beginDoc, docStart, endDoc } from './sketch';

// ---- block-level tag names, packed 6 bits a character (names of at most 10 characters) ----
const SLOTS: u32 = 256;
const NAMES: usize = memory.data(<i32>SLOTS * 8, 16);
const BLOCK_NAMES = 'address article aside blockquote body br button caption center dd details dialog dir div dl dt '
  + 'fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li main menu '
  + 'nav noscript ol optgroup option p pre section select summary table tbody td textarea tfoot th thead title tr ul';

@inline function code(c: u32): u64 {
  // '0'..'9' → 1..10, 'a'..'z' → 11..36 (never 0, so names of different lengths differ)
  return <u64>(c <= 0x39 ? c - 0x2f : c - 0x56);
}

function packString(s: string): u64 {
  let v: u64 = 0;
  for (let i = 0; i < s.length; i++) v = (v << 6) | code(<u32>s.charCodeAt(i));
  return v;
}

@inline function slotOf(v: u64): u32 { return <u32>((v * 0x9e3779b97f4a7c15) >> 56) & (SLOTS - 1); }

function addName(v: u64): void {
  let i = slotOf(v);
  while (load<u64>(NAMES + (<usize>i << 3)) != 0) i = (i + 1) & (SLOTS - 1);
  store<u64>(NAMES + (<usize>i << 3), v);
}

function isBlockName(v: u64): bool {
  let i = slotOf(v);
  while (true) {
    const x = load<u64>(NAMES + (<usize>i << 3));
    if (x == v) return true;
    if (x == 0) return false;
    i = (i + 1) & (SLOTS - 1);
  }
  return false;
}

let NAME_A: u64 = 0;
let NAME_TITLE: u64 = 0;

function initNames(): void {
  let start = 0;
  for (let i = 0; i <= BLOCK_NAMES.length; i++) {
    if (i == BLOCK_NAMES.length || BLOCK_NAMES.charCodeAt(i) == 0x20) {
      addName(packString(BLOCK_NAMES.substring(start, i)));
      start = i + 1;
    }
  }
  NAME_A = packString('a');
  NAME_TITLE = packString('title');
}
initNames();

// ---- configuration ----
let linkPermille: u32 = 500;
let minContent: u32 = 50;

/**
 * Sets the link-density limit, per mille (0..1000; 1000 never removes a block for its links), and
 * the fewest content tokens the link rule may leave: a page that would keep fewer is a page of
 * links, and its link-heavy blocks stay content.
 */
export function tp_configure(limit: u32, min: u32): i32 {
  if (limit > 1000) return -3;
  linkPermille = limit;
  minContent = min;
  return 0;
}

// ---- one document's segmentation ----
const MODE_COLLECT: u32 = 0;   // write each block's fingerprint
const MODE_SKETCH: u32 = 1;    // deliver content blocks' tokens to the sketch

let mode: u32 = MODE_SKETCH;
let tok: usize = 0;         // token fingerprints: the current block's (collect) or the page's (sketch)
let tokCap: u32 = 0;
let blk: usize = 0;         // MODE_SKETCH: per block, u32 first token and u32 count | class << 30
let blkCap: u32 = 0;
let nBlocks: u32 = 0;
let tokBase: u32 = 0;       // first token of the current block in tok
let blkN: u32 = 0;
let blkLinks: u32 = 0;
let blkFp: u64 = 0;
/** The seed of the block fingerprint's mixer ("blocks\0\0"). */
const BLOCK_SEED: u64 = 0x626c6f636b730000;
let linkDepth: i32 = 0;
let inTitle = false;
/** The first word of a page-text fingerprint ("pagetext"): it never equals a content stream's. */
const PAGE_TEXT_MARK: u64 = 0x7061676574657874;
let titleText: u64 = 0;     // MODE_SKETCH: Rabin over PAGE_TEXT_MARK and the title's tokens so far
/** The first word of a content-text fingerprint ("contents"). */
const CONTENT_TEXT_MARK: u64 = 0x636f6e74656e7473;
let titleContent: u64 = 0;  // MODE_SKETCH: Rabin over CONTENT_TEXT_MARK and the title's tokens so far
let titleTokens: u32 = 0;
/** Fewest title and content tokens a content-text fingerprint is made of (fewer: 0, no key). */
const CONTENT_TEXT_MIN: u32 = 8;
let linksDelivered = false; // the last deliverContent kept the link-heavy blocks (a page of links)
let overflow = false;
let table: usize = 0;       // the host's template table (sorted) and its length
let tableLen: u32 = 0;
let out: usize = 0;         // MODE_COLLECT: block fingerprints
let outCap: u32 = 0;
let outN: u32 = 0;
let outCounts: usize = 0;   // MODE_COLLECT: per block, u32 tokens and u32 link tokens
/** Tokens kept as content, removed as template (table) and removed as link-heavy, in the last document. */
let contentTokens: u32 = 0;
let templateTokens: u32 = 0;
let linkTokens: u32 = 0;

function inTable(v: u64): bool {
  let lo: u32 = 0, hi = tableLen;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const x = load<u64>(table + (<usize>mid << 3));
    if (x == v) return true;
    if (x < v) lo = mid + 1; else hi = mid;
  }
  return false;
}

/** Tokens of the text between two tags into the current block. */
function textRun(a: usize, b: usize): void {
  if (b <= a) return;
  const at = tokBase + blkN;
  if (inTitle) {
    // the title is in no block; its tokens only go into the page-text fingerprint
    if (mode != MODE_SKETCH) return;
    emitConfigure(SINK_TOKENS, false);
    emitBegin(tok + (<usize>at << 3), tokCap - at);
    canonicalRun(a, b - a);
    if (emitOverflow()) { overflow = true; return; }
    const got = emitCount();
    for (let j: u32 = 0; j < got; j++) {
      const t = load<u64>(tok + (<usize>(at + j) << 3));
      titleText = pushWord(titleText, t);
      titleContent = pushWord(titleContent, t);
    }
    titleTokens += got;
    return;
  }
  emitConfigure(SINK_TOKENS, false);
  emitBegin(tok + (<usize>at << 3), tokCap - at);
  canonicalRun(a, b - a);
  if (emitOverflow()) { overflow = true; return; }
  const got = emitCount();
  for (let j: u32 = 0; j < got; j++) blkFp = mix(blkFp ^ load<u64>(tok + (<usize>(at + j) << 3)), BLOCK_SEED);
  blkN += got;
  if (linkDepth > 0) blkLinks += got;
}

const CLASS_CONTENT: u32 = 0, CLASS_LINKS: u32 = 1, CLASS_TEMPLATE: u32 = 2;

/** Whether a block of class cls is content: not template, and not link-heavy unless the page is one of links. */
@inline function keeps(cls: u32, withLinks: bool): bool {
  return cls != CLASS_TEMPLATE && (cls != CLASS_LINKS || withLinks);
}

function closeBlock(): void {
  if (blkN == 0) return;
  if (mode == MODE_COLLECT) {
    if (outN < outCap) {
      store<u64>(out + (<usize>outN << 3), blkFp);
      store<u32>(outCounts + (<usize>outN << 3), blkN);
      store<u32>(outCounts + (<usize>outN << 3) + 4, blkLinks);
      outN++;
    } else overflow = true;
  } else {
    // the host's table first: a template block is template whatever its links
    let cls = CLASS_CONTENT;
    if (tableLen > 0 && inTable(blkFp)) { cls = CLASS_TEMPLATE; templateTokens += blkN; }
    else if (<u64>blkLinks * 1000 > <u64>blkN * linkPermille) { cls = CLASS_LINKS; linkTokens += blkN; }
    else contentTokens += blkN;
    if (nBlocks < blkCap) {
      store<u32>(blk + (<usize>nBlocks << 3), tokBase);
      store<u32>(blk + (<usize>nBlocks << 3) + 4, blkN | (cls << 30));
      nBlocks++;
    } else overflow = true;
    tokBase += blkN;
  }
  blkN = 0; blkLinks = 0; blkFp = 0;
}

/**
 * Delivers the page's content blocks to the sketch, in order: the blocks of class CONTENT, and
 * those of class LINKS too when the content alone is under minContent tokens (a page of links).
 */
function deliverContent(): void {
  const withLinks = contentTokens < minContent;
  linksDelivered = withLinks;
  if (withLinks) { contentTokens += linkTokens; linkTokens = 0; }
  emitConfigure(SINK_SKETCH, false);
  for (let b: u32 = 0; b < nBlocks; b++) {
    const first = load<u32>(blk + (<usize>b << 3));
    const word = load<u32>(blk + (<usize>b << 3) + 4);
    const cls = word >> 30, count = word & 0x3fffffff;
    if (!keeps(cls, withLinks)) continue;
    for (let j: u32 = 0; j < count; j++) deliver(load<u64>(tok + (<usize>(first + j) << 3)));
  }
}

@inline function isAlpha(c: u32): bool { return (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a; }
@inline function isAlnum(c: u32): bool { return isAlpha(c) || (c >= 0x30 && c <= 0x39); }

/** The packed lower-case name of the tag starting at p (a '<' that is markup); 0 for none or a long one. */
function tagName(p: usize, end: usize): u64 {
  let q = p + 1;
  if (q < end && load<u8>(q) == 0x2f) q++;
  if (q >= end || !isAlpha(<u32>load<u8>(q))) return 0;
  let v: u64 = 0, n = 0;
  while (q < end) {
    const c = <u32>load<u8>(q);
    if (!isAlnum(c)) break;
    if (++n > 10) return 0;
    v = (v << 6) | code(c | (c >= 0x41 ? 0x20 : 0));
    q++;
  }
  return v;
}

/** Walks one document: text runs between tags into blocks, blocks closed at block-level tags. */
function segment(ptr: usize, len: usize): void {
  blkN = 0; blkLinks = 0; blkFp = 0; linkDepth = 0; inTitle = false; nBlocks = 0; tokBase = 0;
  titleText = pushWord(1, PAGE_TEXT_MARK); titleContent = pushWord(1, CONTENT_TEXT_MARK); titleTokens = 0;
  contentTokens = 0; templateTokens = 0; linkTokens = 0;
  const end = ptr + len;
  let run = ptr, p = ptr;
  while (true) {
    p = scan3(p, end, 0x3c, 0x3c, 0x3c);
    if (p >= end) break;
    const q = skipMarkup(p, end);
    if (q == 0) { p++; continue; }   // a '<' that is text: the run goes on
    textRun(run, p);
    const name = tagName(p, end);
    if (name != 0) {
      const closing = load<u8>(p + 1) == 0x2f;
      if (isBlockName(name)) closeBlock();
      if (name == NAME_A) linkDepth = closing ? (linkDepth > 0 ? linkDepth - 1 : 0) : linkDepth + 1;
      else if (name == NAME_TITLE) inTitle = !closing;
    }
    p = q; run = q;
  }
  textRun(run, end);
  closeBlock();
}

/**
 * Block fingerprints of n documents (bytes + offsets[n + 1]), for learning templates: document
 * i's blocks at out[outOffsets[i]..outOffsets[i+1]), in order, repeats kept, and block j's token
 * and link-token counts at counts[2j], counts[2j + 1] (u32). tokens holds one block's token
 * fingerprints (at most the longest document's length of them). A document of len bytes has at
 * most len / 4 + 1 blocks (each but the last holds a token and ends at a tag).
 */
export function tp_blocks(bytes: usize, offsets: usize, n: i32, outPtr: usize, cap: u32, outOffsets: usize, tokens: usize, tokensCap: u32, counts: usize): i32 {
  mode = MODE_COLLECT; tok = tokens; tokCap = tokensCap; tableLen = 0; blkCap = 0;
  out = outPtr; outCap = cap; outN = 0; overflow = false; outCounts = counts;
  store<u32>(outOffsets, 0);
  for (let i = 0; i < n; i++) {
    const a = docStart(offsets, i), b = docStart(offsets, i + 1);
    segment(bytes + a, b - a);
    if (overflow) return -1;
    store<u32>(outOffsets + (<usize>(i + 1) << 2), outN);
  }
  return <i32>outN;
}

/** Starts a batch of content documents: the page's token and block scratch, no output yet. */
function startContent(tokens: usize, tokensCap: u32, blocks: usize, blocksCap: u32, outOffsets: usize): void {
  mode = MODE_SKETCH; tok = tokens; tokCap = tokensCap; blk = blocks; blkCap = blocksCap; overflow = false;
  store<u32>(outOffsets, 0);
}

/**
 * The shingle fingerprint of a page with too little content, its title's and content's: Rabin over
 * the words CONTENT_TEXT_MARK, the title's tokens, CONTENT_TEXT_MARK again and the content tokens
 * the sketch was given (as deliverContent chose them); 0 when there is no content token or fewer
 * than CONTENT_TEXT_MIN title and content tokens together. Builds of one manual side by side whose
 * template text differs (a build date) give their thin pages the same value.
 */
function contentTextFingerprint(): u64 {
  if (contentTokens == 0 || titleTokens + contentTokens < CONTENT_TEXT_MIN) return 0;
  let h = pushWord(titleContent, CONTENT_TEXT_MARK);
  for (let b: u32 = 0; b < nBlocks; b++) {
    const first = load<u32>(blk + (<usize>b << 3));
    const word = load<u32>(blk + (<usize>b << 3) + 4);
    const cls = word >> 30, count = word & 0x3fffffff;
    if (!keeps(cls, linksDelivered)) continue;
    for (let j: u32 = 0; j < count; j++) h = pushWord(h, load<u64>(tok + (<usize>(first + j) << 3)));
  }
  return h;
}

/**
 * The lexical fingerprint of a page with too little content, its whole text's: Rabin over the
 * 8-byte big-endian words PAGE_TEXT_MARK, the title's tokens, PAGE_TEXT_MARK again and every
 * other token of the page (template and link-heavy blocks included); 0 for a page without tokens
 * (it is equivalent to nothing).
 */
function pageTextFingerprint(): u64 {
  if (tokBase == 0 && titleTokens == 0) return 0;
  let h = pushWord(titleText, PAGE_TEXT_MARK);
  for (let j: u32 = 0; j < tokBase; j++) h = pushWord(h, load<u64>(tok + (<usize>j << 3)));
  return h;
}

/** Makes table t of tables (0xffffffff: none) the one blocks are checked against. */
function useTable(tables: usize, tableOffsets: usize, t: u32): void {
  if (t == 0xffffffff) { tableLen = 0; return; }
  const ta = load<u32>(tableOffsets + (<usize>t << 2));
  table = tables + (<usize>ta << 3);
  tableLen = load<u32>(tableOffsets + (<usize>(t + 1) << 2)) - ta;
}

/** docTable value of a page sketched whole (its site's template is light, or unknown): exactly sk_sketch_batch's sketch. */
const WHOLE_PAGE: u32 = 0xfffffffe;

/**
 * Content sketches of n documents: as sk_sketch_batch (same outputs, same bounds), with each
 * document's tokens limited to its content blocks. Document i is checked against table
 * docTable[i] of tables (sorted u64 fingerprints at tables[tableOffsets[t]..tableOffsets[t+1]));
 * docTable[i] = 0xffffffff for none (only the link rule and the title apply), 0xfffffffe for the
 * whole page (every token, title included: the sketch sk_sketch_batch makes). tokens holds a
 * page's token fingerprints (at most its length of them), blocks two u32 per block (at most length / 4 + 1 blocks). counts[3i..3i+3) = content,
 * template and link-heavy tokens.
 */
export function tp_sketch_batch(bytes: usize, offsets: usize, n: i32, tables: usize, tableOffsets: usize, docTable: usize,
                                values: usize, valuesCap: u32, outOffsets: usize, info: usize, signatures: usize,
                                scratch: usize, scratchCap: u32, tokens: usize, tokensCap: u32, blocks: usize, blocksCap: u32,
                                counts: usize): i32 {
  startContent(tokens, tokensCap, blocks, blocksCap, outOffsets);
  let written: u32 = 0;
  for (let i = 0; i < n; i++) {
    const a = docStart(offsets, i), b = docStart(offsets, i + 1);
    const t = load<u32>(docTable + (<usize>i << 2));
    if (t == WHOLE_PAGE) {
      const c = counts + (<usize>i * 12);
      emitConfigure(SINK_SKETCH, false);
      beginDoc(scratch, scratchCap);
      canonicalRun(bytes + a, b - a);
      const count = endDoc(i, bytes + a, b - a, values, valuesCap, written, outOffsets, info, signatures);
      if (count < 0) return count;
      written += <u32>count;
      store<u32>(c, <u32>load<u64>(info + (<usize>i * 48) + 24));
      store<u32>(c + 4, 0);
      store<u32>(c + 8, 0);
      continue;
    }
    useTable(tables, tableOffsets, t);
    beginDoc(scratch, scratchCap);
    segment(bytes + a, b - a);
    if (overflow) return -2;
    deliverContent();
    const count = endDoc(i, bytes + a, b - a, values, valuesCap, written, outOffsets, info, signatures);
    if (count < 0) return count;
    written += <u32>count;
    // too little content: the lexical fingerprint is the whole text's, so lexically equivalent
    // copies (markup and links changed, every word the same) still find each other, and the
    // shingle fingerprint the title's and content's, so copies whose template text differs do
    if (contentTokens < minContent) {
      store<u64>(info + (<usize>i * 48) + 8, pageTextFingerprint());
      store<u64>(info + (<usize>i * 48) + 16, contentTextFingerprint());
    }
    store<u64>(info + (<usize>i * 48) + 24, contentTokens);
    const c = counts + (<usize>i * 12);
    store<u32>(c, contentTokens);
    store<u32>(c + 4, templateTokens);
    store<u32>(c + 8, linkTokens);
  }
  return n;
}

/**
 * Content tokens of n documents: the token fingerprints content sketches shingle (the blocks
 * deliverContent keeps, in order), for bags of words. Document i is checked against table
 * docTable[i] as in tp_sketch_batch (0xffffffff: none; 0xfffffffe: the whole page, every token,
 * title included, as tk_tokens gives them). Tokens at out[outOffsets[i]..outOffsets[i+1]); tokens
 * and blocks are scratch as for tp_sketch_batch. Returns n, -1 when out is full, -2 on scratch overflow.
 */
export function tp_content_tokens(bytes: usize, offsets: usize, n: i32, tables: usize, tableOffsets: usize, docTable: usize,
                                  outPtr: usize, cap: u32, outOffsets: usize, tokens: usize, tokensCap: u32, blocks: usize, blocksCap: u32): i32 {
  startContent(tokens, tokensCap, blocks, blocksCap, outOffsets);
  let written: u32 = 0;
  for (let i = 0; i < n; i++) {
    const a = docStart(offsets, i), b = docStart(offsets, i + 1);
    const t = load<u32>(docTable + (<usize>i << 2));
    if (t == WHOLE_PAGE) {
      emitConfigure(SINK_TOKENS, false);
      emitBegin(outPtr + (<usize>written << 3), cap - written);
      canonicalRun(bytes + a, b - a);
      if (emitOverflow()) return -1;
      written += emitCount();
    } else {
      useTable(tables, tableOffsets, t);
      segment(bytes + a, b - a);
      if (overflow) return -2;
      const withLinks = contentTokens < minContent;
      for (let k: u32 = 0; k < nBlocks; k++) {
        const first = load<u32>(blk + (<usize>k << 3));
        const word = load<u32>(blk + (<usize>k << 3) + 4);
        const cls = word >> 30, count = word & 0x3fffffff;
        if (!keeps(cls, withLinks)) continue;
        if (written + count > cap) return -1;
        memory.copy(outPtr + (<usize>written << 3), tok + (<usize>first << 3), <usize>count << 3);
        written += count;
      }
    }
    store<u32>(outOffsets + (<usize>(i + 1) << 2), written);
  }
  return n;
}
