// Canonical tokens from UTF-8 bytes in one pass (docs/FORMATS.md, "Tokens"): markup dropped
// (tags, comments, declarations, <script>/<style> contents) when markup is on, character
// references decoded, case folded, words split at anything that is not a letter or digit,
// scripts written without spaces split into one token per character. Invalid UTF-8 never traps:
// a byte that does not start a valid sequence is a separator.
import { classOf, foldOf, SEP, SINGLE, WORD } from './classify';
import {
  bufferedSink, bufN, charMode, curAcc, curAccN, curHash, curWords, deliverUnbuffered, endChar, endToken, fastWords, flushBuffer,
  putState, tokAppend, tokBuf, TOKBUF_CAP, tokByte,
} from './emit';
import { pushWord, step } from './rabin';
import { namedEntity } from './entities';
import { scan3 } from './scan';
import { cfgMarkup } from './config';

// Byte classes: 0 separator, 1 '<' (markup on), 2 '&' (markup on), 3 a byte ≥ 0x80,
// otherwise the lowercase ASCII letter or digit itself (all ≥ 0x30).
const CLS_HTML: usize = memory.data(256, 16);
const CLS_TEXT: usize = memory.data(256, 16);

function initClasses(): void {
  for (let b: u32 = 0; b < 256; b++) {
    let c: u32 = 0;
    if (b >= 0x30 && b <= 0x39) c = b;
    else if (b >= 0x61 && b <= 0x7a) c = b;
    else if (b >= 0x41 && b <= 0x5a) c = b + 0x20;
    else if (b >= 0x80) c = 3;
    store<u8>(CLS_TEXT + b, <u8>c);
    store<u8>(CLS_HTML + b, <u8>(b == 0x3c ? 1 : b == 0x26 ? 2 : c));
  }
}
initClasses();

/** The folded code point as UTF-8 bytes into the current token. */
function emitUtf8(cp: u32): void {
  if (cp < 0x800) {
    tokByte(0xc0 | (cp >> 6)); tokByte(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    tokByte(0xe0 | (cp >> 12)); tokByte(0x80 | ((cp >> 6) & 0x3f)); tokByte(0x80 | (cp & 0x3f));
  } else {
    tokByte(0xf0 | (cp >> 18)); tokByte(0x80 | ((cp >> 12) & 0x3f)); tokByte(0x80 | ((cp >> 6) & 0x3f)); tokByte(0x80 | (cp & 0x3f));
  }
}

/** One decoded code point (from UTF-8 or a character reference). */
function codePoint(cp: u32): void {
  if (cp < 0x80) {
    const c = <u32>load<u8>(CLS_TEXT + cp);
    if (c >= 0x30) { tokByte(c); endChar(); } else endToken();
    return;
  }
  const k = classOf(cp);
  if (k == SEP) { endToken(); return; }
  if (k == SINGLE) { endToken(); emitUtf8(cp); endChar(); endToken(); return; }
  emitUtf8(foldOf(cp));
  endChar();
}

let decLen: u32 = 0;

/** Decodes a UTF-8 sequence at p (first byte ≥ 0x80); returns the code point, or −1 (decLen = 1). */
function decode(p: usize, end: usize): i32 {
  const b = <u32>load<u8>(p);
  decLen = 1;
  let n: u32, lo: u32 = 0x80, hi: u32 = 0xbf, cp: u32;
  if (b >= 0xc2 && b <= 0xdf) { n = 1; cp = b & 0x1f; }
  else if (b >= 0xe0 && b <= 0xef) { n = 2; cp = b & 0x0f; if (b == 0xe0) lo = 0xa0; else if (b == 0xed) hi = 0x9f; }
  else if (b >= 0xf0 && b <= 0xf4) { n = 3; cp = b & 0x07; if (b == 0xf0) lo = 0x90; else if (b == 0xf4) hi = 0x8f; }
  else return -1;
  if (p + n >= end) return -1;   // truncated at the end of the document
  for (let i: u32 = 1; i <= n; i++) {
    const c = <u32>load<u8>(p + i);
    if (c < lo || c > hi) return -1;
    lo = 0x80; hi = 0xbf;
    cp = (cp << 6) | (c & 0x3f);
  }
  decLen = n + 1;
  return <i32>cp;
}

@inline function lower(c: u32): u32 { return c >= 0x41 && c <= 0x5a ? c + 0x20 : c; }
@inline function isAlpha(c: u32): bool { return (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a; }
@inline function isAlnum(c: u32): bool { return isAlpha(c) || (c >= 0x30 && c <= 0x39); }

/** Position after the first occurrence of the ASCII string s at or after p, or end. */
function skipPast(p: usize, end: usize, s: string, ci: bool): usize {
  const n = s.length;
  const first = <u32>s.charCodeAt(0);
  while (p + <usize>n <= end) {
    p = scan3(p, end, first, first, first);
    if (p + <usize>n > end) break;
    let ok = true;
    for (let i = 1; i < n; i++) {
      const c = <u32>load<u8>(p + i);
      if ((ci ? lower(c) : c) != <u32>s.charCodeAt(i)) { ok = false; break; }
    }
    if (ok) return p + n;
    p++;
  }
  return end;
}

/** HTML's spaces: tab, line feed, form feed, carriage return, space (one bit test). */
@inline function isSpace(c: u32): bool { return c <= 0x20 && ((<u64>0x100003600 >> <u64>c) & 1) != 0; }

/** Exact marks (high bit of each byte) of the bytes of x equal to b: no carries between bytes. */
@inline function exactlyEqual(x: u64, b: u64): u64 {
  const v = x ^ (0x0101010101010101 * b);
  return ~(((v & 0x7f7f7f7f7f7f7f7f) + 0x7f7f7f7f7f7f7f7f) | v | 0x7f7f7f7f7f7f7f7f);
}

// The tag scan's constants for the SIMD build, loaded from memory (see VCONST): '>', '"', "'".
const TCONST: usize = memory.data<u8>([
  0x3e, 0x3e, 0x3e, 0x3e, 0x3e, 0x3e, 0x3e, 0x3e, 0x3e, 0x3e, 0x3e, 0x3e, 0x3e, 0x3e, 0x3e, 0x3e,
  0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22,
  0x27, 0x27, 0x27, 0x27, 0x27, 0x27, 0x27, 0x27, 0x27, 0x27, 0x27, 0x27, 0x27, 0x27, 0x27, 0x27,
], 16);

/** The 16-bit masks of '>' (bits 0–15), '"' (16–31) and "'" (32–47) in the 16 bytes at p. */
@inline function tagMasks(p: usize): u64 {
  if (ASC_FEATURE_SIMD) {
    const v = v128.load(p);
    const gt = <u64>i8x16.bitmask(i8x16.eq(v, v128.load(TCONST)));
    const dq = <u64>i8x16.bitmask(i8x16.eq(v, v128.load(TCONST + 16)));
    const sq = <u64>i8x16.bitmask(i8x16.eq(v, v128.load(TCONST + 32)));
    return gt | (dq << 16) | (sq << 32);
  } else {
    const x0 = load<u64>(p), x1 = load<u64>(p + 8);
    const gt = movemask(exactlyEqual(x0, 0x3e)) | (movemask(exactlyEqual(x1, 0x3e)) << 8);
    const dq = movemask(exactlyEqual(x0, 0x22)) | (movemask(exactlyEqual(x1, 0x22)) << 8);
    const sq = movemask(exactlyEqual(x0, 0x27)) | (movemask(exactlyEqual(x1, 0x27)) << 8);
    return <u64>gt | (<u64>dq << 16) | (<u64>sq << 32);
  }
}

const SCRIPT_LE: u64 = 0x747069726373;   // "script", little-endian
const STYLE_LE: u64 = 0x656c797473;      // "style", little-endian

/** The masks of '>' (bits 0–15) and of either quote (bits 16–31) in the 16 bytes at p. */
@inline function gtQuoteMasks(p: usize): u32 {
  if (ASC_FEATURE_SIMD) {
    const v = v128.load(p);
    const gt = <u32>i8x16.bitmask(i8x16.eq(v, v128.load(TCONST)));
    const quote = <u32>i8x16.bitmask(v128.or(i8x16.eq(v, v128.load(TCONST + 16)), i8x16.eq(v, v128.load(TCONST + 32))));
    return gt | (quote << 16);
  } else {
    const x0 = load<u64>(p), x1 = load<u64>(p + 8);
    const gt = movemask(exactlyEqual(x0, 0x3e)) | (movemask(exactlyEqual(x1, 0x3e)) << 8);
    const quote = movemask(exactlyEqual(x0, 0x22) | exactlyEqual(x0, 0x27)) | (movemask(exactlyEqual(x1, 0x22) | exactlyEqual(x1, 0x27)) << 8);
    return gt | (quote << 16);
  }
}

/**
 * A start or end tag at p (a '<', with 16 bytes left), other than <script and <style: returns
 * the position after the '>' ending it — what skipMarkup returns for it — or 0 when skipMarkup
 * must decide (not a tag, script or style). A '>' in the 16 bytes with no quote before it ends the
 * tag at once; otherwise tagEnd walks on from the name's start (the same end as from the name's
 * end, as skipMarkup walks: a name holds no '>', quote, '=' or space).
 */
@inline function tagAt(p: usize, end: usize): usize {
  const closing = load<u8>(p + 1) == 0x2f;
  const s: u32 = closing ? 2 : 1;
  if (!isAlpha(<u32>load<u8>(p + s))) return 0;
  if (!closing && (load<u8>(p + 1) | 0x20) == 0x73) {
    // "script" / "style" in any case (only letters match with 0x20 set), followed by a byte that ends the name
    const w = load<u64>(p + 1) | 0x202020202020;
    if ((w & 0xffffffffffff) == SCRIPT_LE && !isAlnum(<u32>load<u8>(p + 7))) return 0;
    if ((w & 0xffffffffff) == STYLE_LE && !isAlnum(<u32>load<u8>(p + 6))) return 0;
  }
  const m = gtQuoteMasks(p);
  if (m == 0) return tagEnd(p + s, end);
  const g = <u32>ctz(m & 0xffff | m >> 16);
  if ((m >> g) & 1) return p + <usize>g + 1;   // a '>' with no quote before it
  // the usual attribute value: name="…" — its closing quote found at once, then the '>' after it
  // (what tagEnd finds walking from the name: the first quote opens a value when '=' is before it)
  let at = p + <usize>g;
  if (load<u8>(at - 1) != 0x3d) return tagEnd(p + s, end);
  while (true) {
    const close = closingQuote(at, end);
    if (close >= end) return end;
    // after the value: the next '>' or quote (tagEnd from here is tagEnd from the name: its start
    // only bounds the look back for '=', and the quote at close stops that look back)
    const after = close + 1;
    if (after + 16 > end) return tagEnd(after, end);
    const m2 = gtQuoteMasks(after);
    if (m2 == 0) return tagEnd(after, end);
    const g2 = <u32>ctz(m2 & 0xffff | m2 >> 16);
    if ((m2 >> g2) & 1) return after + <usize>g2 + 1;
    at = after + <usize>g2;   // another quote: a value again when '=' is right before it
    if (load<u8>(at - 1) != 0x3d) return tagEnd(after, end);
  }
  return end;   // not reached
}

/** The first byte after at equal to the quote at at, or end (scan3's answer). */
@inline function closingQuote(at: usize, end: usize): usize {
  if (ASC_FEATURE_SIMD) {
    const k = v128.load(TCONST + (load<u8>(at) == 0x22 ? 16 : 32));
    let q = at + 1;
    while (q + 16 <= end) {
      const bits = i8x16.bitmask(i8x16.eq(v128.load(q), k));
      if (bits != 0) return q + <usize>ctz(bits);
      q += 16;
    }
  }
  const c = <u32>load<u8>(at);
  return scan3(at + 1, end, c, c, c);
}

/** True when the quote at q opens an attribute value: the last non-space byte before it, within the tag (from start), is '='. */
@inline function opensValue(start: usize, q: usize): bool {
  if (q <= start) return false;
  const c = <u32>load<u8>(q - 1);
  if (c == 0x3d) return true;   // the usual case: name="value"
  if (!isSpace(c)) return false;
  q--;
  while (q > start && isSpace(<u32>load<u8>(q - 1))) q--;
  return q > start && load<u8>(q - 1) == 0x3d;
}

/**
 * Position after the '>' ending a tag whose name ends at start; a quote right after '=' (spaces
 * allowed between) opens an attribute value that may hold '>'. Sixteen bytes at a time: the
 * masks of '>' and of both quotes are walked in order, so a tag with its attribute values is
 * usually one or two loads.
 */
function tagEnd(start: usize, end: usize): usize {
  let p = start;
  while (p + 16 <= end) {
    const m = tagMasks(p);
    const gt = <u32>m & 0xffff, dq = <u32>(m >> 16) & 0xffff, sq = <u32>(m >> 32);
    let bits = gt | dq | sq;
    let resume: usize = 0;
    while (bits != 0) {
      const i = <u32>ctz(bits);
      if ((gt >> i) & 1) return p + <usize>i + 1;
      const at = p + <usize>i;
      if (opensValue(start, at)) {
        const later = (((dq >> i) & 1) ? dq : sq) & ~((<u32>2 << i) - 1);
        if (later != 0) { bits &= ~((<u32>2 << <u32>ctz(later)) - 1); continue; }   // the value closes in this block
        const c = <u32>load<u8>(at);
        const close = scan3(at + 1, end, c, c, c);
        if (close >= end) return end;
        resume = close + 1;
        break;
      }
      bits &= bits - 1;   // a quote that is not a value is just a byte
    }
    p = resume != 0 ? resume : p + 16;
  }
  while (p < end) {
    const c = <u32>load<u8>(p);
    if (c == 0x3e) return p + 1;
    if ((c == 0x22 || c == 0x27) && opensValue(start, p)) {
      p = scan3(p + 1, end, c, c, c);
      if (p < end) p++;
      continue;
    }
    p++;
  }
  return end;
}

/** True when the ASCII letters at p equal the lowercase name, ignoring case. */
function nameIs(p: usize, name: string): bool {
  for (let i = 0; i < name.length; i++) if (lower(<u32>load<u8>(p + i)) != <u32>name.charCodeAt(i)) return false;
  return true;
}

/** If markup starts at p (a '<'), the position after it; otherwise 0. (Exported for assembly/template.ts.) */
export function skipMarkup(p: usize, end: usize): usize {
  let q = p + 1;
  if (q >= end) return 0;
  let c = <u32>load<u8>(q);
  if (c == 0x21) { // '!': comment or declaration
    if (q + 2 < end && load<u8>(q + 1) == 0x2d && load<u8>(q + 2) == 0x2d) return skipPast(q + 3, end, '-->', false);
    return skipPast(q + 1, end, '>', false);
  }
  if (c == 0x3f) return skipPast(q + 1, end, '>', false); // processing instruction
  const closing = c == 0x2f;
  if (closing) { q++; if (q >= end) return 0; c = <u32>load<u8>(q); }
  if (!isAlpha(c)) return 0;
  const nameStart = q;
  while (q < end && isAlnum(<u32>load<u8>(q))) q++;
  const nameLen = q - nameStart;
  const e = tagEnd(q, end);
  if (!closing && nameLen == 6 && nameIs(nameStart, 'script')) return tagEnd(skipPast(e, end, '</script', true), end);
  if (!closing && nameLen == 5 && nameIs(nameStart, 'style')) return tagEnd(skipPast(e, end, '</style', true), end);
  return e;
}

let entLen: u32 = 0;

/** If a character reference starts at p (a '&'), its code point (entLen = bytes used); else −1. */
function entity(p: usize, end: usize): i32 {
  let q = p + 1;
  if (q >= end) return -1;
  if (load<u8>(q) == 0x23) { // '#'
    q++;
    let hex = false;
    if (q < end && (load<u8>(q) | 0x20) == 0x78) { hex = true; q++; }
    let v: u32 = 0, digits = 0;
    while (q < end && digits < 8) {
      const c = <u32>load<u8>(q);
      let d: i32 = -1;
      if (c >= 0x30 && c <= 0x39) d = c - 0x30;
      else if (hex && (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66) d = (c | 0x20) - 0x61 + 10;
      if (d < 0) break;
      v = v * (hex ? 16 : 10) + <u32>d;
      digits++; q++;
    }
    if (digits == 0) return -1;
    if (q < end && load<u8>(q) == 0x3b) q++;
    entLen = <u32>(q - p);
    return v == 0 || v > 0x10ffff ? 0xfffd : <i32>v;
  }
  const start = q;
  while (q < end && q - start < 32 && isAlnum(<u32>load<u8>(q))) q++;
  if (q == start || q >= end || load<u8>(q) != 0x3b) return -1;
  const cp = namedEntity(start, <u32>(q - start));
  if (cp < 0) return -1;
  entLen = <u32>(q + 1 - p);
  return cp;
}

/** Runs the tokenizer over len bytes at ptr, delivering tokens to the configured sink. */
export function canonicalRun(ptr: usize, len: usize): void {
  if (fastWords()) blockRun(ptr, len);
  else byteRun(ptr, len);
}

// ---- the block path: 16 bytes classified at once ----
//
// In text, a block of 16 bytes is classified in a few vector (SIMD build) or SWAR (scalar build)
// operations into two bit masks — word bytes (ASCII letters and digits) and bytes that need the
// slow path ('<' and '&' with markup, any byte ≥ 0x80) — and its bytes are case-folded and stored
// reversed, so the big-endian bytes of any run inside it are one 8-byte load. Tokens are then
// walked with count-trailing-zeros over the masks: the work is per token and per block, not per
// byte. Both builds give the same masks and bytes, so the same tokens.

// the current block's folded bytes, reversed: REV[15 − i] = folded byte i (8 bytes of slack)
const REV: usize = memory.data(32, 16);

const ONES: u64 = 0x0101010101010101;
const HIGHS: u64 = 0x8080808080808080;

// The SIMD classification's constants, loaded from memory (a constant vector written in the code
// is rebuilt from immediates at each use, three instructions): 0x20, 0x1f, −102, 0x50, −118, '<', '&'.
const VCONST: usize = memory.data<u8>([
  0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
  0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f,
  0x9a, 0x9a, 0x9a, 0x9a, 0x9a, 0x9a, 0x9a, 0x9a, 0x9a, 0x9a, 0x9a, 0x9a, 0x9a, 0x9a, 0x9a, 0x9a,
  0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50,
  0x8a, 0x8a, 0x8a, 0x8a, 0x8a, 0x8a, 0x8a, 0x8a, 0x8a, 0x8a, 0x8a, 0x8a, 0x8a, 0x8a, 0x8a, 0x8a,
  0x3c, 0x3c, 0x3c, 0x3c, 0x3c, 0x3c, 0x3c, 0x3c, 0x3c, 0x3c, 0x3c, 0x3c, 0x3c, 0x3c, 0x3c, 0x3c,
  0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26, 0x26,
], 16);

/** High bit of each byte of x that lies in [lo, hi] (bytes < 0x80; a byte ≥ 0x80 may disturb the bytes after it). */
@inline function inRange(x: u64, lo: u64, hi: u64): u64 {
  return (x + ONES * (0x80 - lo)) & ~(x + ONES * (0x7f - hi)) & HIGHS;
}

/** The 8 high bits of x's bytes as an 8-bit mask (bit i = byte i). */
@inline function movemask(x: u64): u32 {
  return <u32>((((x & HIGHS) >> 7) * 0x0102040810204080) >> 56);
}

/** Marks of the bytes of x equal to b (the lowest mark is exact; higher ones may be false). */
@inline function equalTo(x: u64, b: u64): u64 {
  const v = x ^ (ONES * b);
  return (v - ONES) & ~v & HIGHS;
}

/**
 * Classifies the 16 bytes at p: stores them case-folded and reversed in REV and returns the mask
 * of word bytes (ASCII letters and digits, bits 0–15) and of slow-path bytes ('<' and '&' with
 * markup, any byte ≥ 0x80; bits 16–31). A range test x ∈ [lo, lo + n) is one signed comparison after
 * adding 0x80 − lo: (x + 0x80 − lo) < −128 + n.
 */
@inline function classify(p: usize, markup: bool): u32 {
  if (ASC_FEATURE_SIMD) {
    const v = v128.load(p);
    const k20 = v128.load(VCONST), k1f = v128.load(VCONST + 16), kAlpha = v128.load(VCONST + 32), k50 = v128.load(VCONST + 48);
    const kDigit = v128.load(VCONST + 64), kLt = v128.load(VCONST + 80), kAmp = v128.load(VCONST + 96);
    const alpha = i8x16.lt_s(i8x16.add(v128.or(v, k20), k1f), kAlpha);
    const digit = i8x16.lt_s(i8x16.add(v, k50), kDigit);
    // a byte ≥ 0x80 has its high bit already; '<' and '&' get it from their all-ones comparisons
    let special = v;
    if (markup) special = v128.or(v, v128.or(i8x16.eq(v, kLt), i8x16.eq(v, kAmp)));
    // a lowercase letter has 0x20 already, so setting it on every letter folds the capitals only
    const folded = v128.or(v, v128.and(alpha, k20));
    v128.store(REV, i8x16.shuffle(folded, folded, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
    return <u32>i8x16.bitmask(v128.or(alpha, digit)) | (<u32>i8x16.bitmask(special) << 16);
  } else {
    const x0 = load<u64>(p), x1 = load<u64>(p + 8);
    const l0 = x0 | (ONES * 0x20), l1 = x1 | (ONES * 0x20);
    const w0 = inRange(l0, 0x61, 0x7a) | inRange(x0, 0x30, 0x39);
    const w1 = inRange(l1, 0x61, 0x7a) | inRange(x1, 0x30, 0x39);
    let s0 = x0 & HIGHS, s1 = x1 & HIGHS;
    if (markup) { s0 |= equalTo(x0, 0x3c) | equalTo(x0, 0x26); s1 |= equalTo(x1, 0x3c) | equalTo(x1, 0x26); }
    const f0 = x0 | (inRange(x0, 0x41, 0x5a) >> 2), f1 = x1 | (inRange(x1, 0x41, 0x5a) >> 2);
    store<u64>(REV, bswap<u64>(f1));
    store<u64>(REV + 8, bswap<u64>(f0));
    return movemask(w0) | (movemask(w1) << 8) | ((movemask(s0) | (movemask(s1) << 8)) << 16);
  }
}

/** Big-endian bytes i .. i + n − 1 (n ≤ 8) of the current block, in the low 8n bits. */
@inline function blockBytes(i: u32, n: u32): u64 {
  const w = load<u64>(REV + 16 - <usize>(i + n));
  return n == 8 ? w : w & ((<u64>1 << (<u64>n << 3)) - 1);
}

/** Rabin of a token: its full words folded into h (words of them), then its accN pending bytes in acc (emit.ts, tokenValue). */
@inline function tokenOf(h: u64, words: u32, acc: u64, accN: u32): u64 {
  if (words == 0) return (<u64>1 << (<u64>accN << 3)) | acc;
  for (let i = <i32>accN - 1; i >= 0; i--) h = step(h, <u32>(acc >> (<u64>i << 3)) & 0xff);
  return h;
}

/**
 * Word units into a fingerprinting sink: text 16 bytes a step, markup and references as in byteRun.
 *
 * A block of 16 bytes is classified in a few vector (SIMD build) or SWAR (scalar build) operations
 * into two bit masks — word bytes and bytes that need the slow path — and its bytes are case-folded
 * and stored reversed, so the big-endian bytes of any run inside it are one 8-byte load. The word
 * runs before the first slow-path byte are walked with count-trailing-zeros: the work is per token
 * and per block, not per byte. The current token (its Rabin state over whole words, the pending
 * bytes) and the token buffer live in locals here, and go back to emit.ts's globals around every
 * call that uses them (the slow path, the buffer's roll, the unbuffered sinks' delivery). Both
 * builds give the same masks and bytes, so the same tokens.
 */
function blockRun(ptr: usize, len: usize): void {
  let p = ptr;
  const end = ptr + len;
  const markup = cfgMarkup;
  const buffered = bufferedSink();
  const buf = tokBuf();
  let h = curHash(), words = curWords(), acc = curAcc(), accN = curAccN(), n = bufN();
  while (p + 16 <= end) {
    if (markup && load<u8>(p) == 0x3c) {
      // markup: a tag goes to its end from here (half the tags on real pages follow another at once)
      const q = tagAt(p, end);
      if (q != 0) {
        if ((words | accN) != 0) {
          const t = tokenOf(h, words, acc, accN);
          if (buffered) {
            store<u64>(buf + (<usize>n << 3), t);
            if (++n == TOKBUF_CAP) { flushBuffer(n); n = 0; }
          } else deliverUnbuffered(t);
          h = 1; words = 0; acc = 0; accN = 0;
        }
        p = q;
        continue;
      }
    } else {
      const masks = classify(p, markup);
      const specials = masks >> 16;
      const lim: u32 = specials != 0 ? <u32>ctz(specials) : 16;
      // the word bytes before the first slow-path byte
      let word = masks & ((<u32>1 << lim) - 1);
      let i: u32 = 0;
      while (true) {
        let run: u32;
        if ((words | accN) != 0) {   // a token is open: it holds a byte
          run = <u32>ctz(~word);   // the open token goes on over the block's leading word bytes (maybe none)
        } else {
          if (word == 0) break;
          i = <u32>ctz(word);
          run = <u32>ctz(~(word >> i));
          if (run < 8 && i + run < lim) {
            // a whole token of ≤ 7 bytes inside the block: its fingerprint is x^(8r) + its bytes
            const t = (<u64>1 << (<u64>run << 3)) | blockBytes(i, run);
            if (buffered) {
              store<u64>(buf + (<usize>n << 3), t);
              if (++n == TOKBUF_CAP) { flushBuffer(n); n = 0; }
            } else deliverUnbuffered(t);
            word &= ~((<u32>1 << (i + run)) - 1);
            continue;
          }
        }
        // the bytes [i, i + run) go into the open token, 8 at a time
        let at = i, left = run;
        while (left != 0) {
          const m: u32 = left < 8 ? left : 8;
          const w = blockBytes(at, m);
          const total = accN + m;
          if (total < 8) {
            acc = (acc << (<u64>m << 3)) | w;   // m < 8 here, so the shift is below 64
            accN = total;
          } else {
            // fill the pending word (acc is 0 when accN is 0, so a 64-bit shift, taken mod 64, is harmless)
            const rest = total - 8;
            h = pushWord(h, (acc << (<u64>(8 - accN) << 3)) | (w >> (<u64>rest << 3)));
            words++;
            acc = w & ((<u64>1 << (<u64>rest << 3)) - 1);
            accN = rest;
          }
          at += m; left -= m;
        }
        i += run;
        if (i >= lim) break;   // the token reaches the slow-path byte (or the block's end): it stays open
        // a separator byte ends it
        const t = tokenOf(h, words, acc, accN);
        if (buffered) {
          store<u64>(buf + (<usize>n << 3), t);
          if (++n == TOKBUF_CAP) { flushBuffer(n); n = 0; }
        } else deliverUnbuffered(t);
        h = 1; words = 0; acc = 0; accN = 0;
        word &= ~((<u32>1 << i) - 1);
      }
      p += lim;
      if (lim == 16) continue;
      if (markup && load<u8>(p) == 0x3c) continue;   // a '<': the tag at the top (or, within 16 bytes of the end, the slow path after the loop)
      // Valid 2- and 3-byte UTF-8 sequences, one after another, here without the slow path's calls:
      // what special → codePoint does for them (a separator ends the open token, a script written
      // without spaces makes one token of each character, a word character goes folded into the open token).
      const from = p;
      let b0 = <u32>load<u8>(p);
      if (b0 == 0x26) {
        // the common references to a separator ('>', '<', '&', '"', no-break space, the apostrophe): they end the open token
        const x = load<u64>(p);   // p + 8 ≤ end is checked below, before it counts
        let refLen: u32 = 0;
        const x4 = x & 0xffffffff, x5 = x & 0xffffffffff, x6 = x & 0xffffffffffff;
        if (x4 == 0x3b746726 || x4 == 0x3b746c26) refLen = 4;                     // &gt; &lt;
        else if (x5 == 0x3b706d6126 || x5 == 0x3b39332326) refLen = 5;            // &amp; &#39;
        else if (x6 == 0x3b746f757126 || x6 == 0x3b7073626e26) refLen = 6;       // &quot; &nbsp;
        if (refLen != 0 && p + 8 <= end) {
          if ((words | accN) != 0) {
            const t = tokenOf(h, words, acc, accN);
            if (buffered) {
              store<u64>(buf + (<usize>n << 3), t);
              if (++n == TOKBUF_CAP) { flushBuffer(n); n = 0; }
            } else deliverUnbuffered(t);
            h = 1; words = 0; acc = 0; accN = 0;
          }
          p += <usize>refLen;
          continue;
        }
      }
      while (b0 >= 0xc2 && b0 <= 0xef) {
        let cp: u32 = 0, len: u32 = 0, raw: u64 = 0;
        if (b0 < 0xe0) {
          if (p + 1 < end) {
            const b1 = <u32>load<u8>(p + 1);
            if ((b1 & 0xc0) == 0x80) { cp = ((b0 & 0x1f) << 6) | (b1 & 0x3f); len = 2; raw = <u64>((b0 << 8) | b1); }
          }
        } else if (p + 2 < end) {
          const b1 = <u32>load<u8>(p + 1), b2 = <u32>load<u8>(p + 2);
          const lo: u32 = b0 == 0xe0 ? 0xa0 : 0x80, hi: u32 = b0 == 0xed ? 0x9f : 0xbf;
          if (b1 >= lo && b1 <= hi && (b2 & 0xc0) == 0x80) {
            cp = ((b0 & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f); len = 3; raw = <u64>((b0 << 16) | (b1 << 8) | b2);
          }
        }
        if (len == 0) break;   // not a valid sequence: the slow path
        // classOf's answer, its commonest ranges first: CJK ideographs, alphabets, punctuation, kana
        const k = cp >= 0x4e00 && cp < 0xa000 ? SINGLE : cp >= 0x100 && cp < 0x0e00 ? WORD : cp >= 0x2000 && cp < 0x2070 ? SEP
          : cp >= 0x3000 && cp < 0x3100 ? (cp < 0x3040 ? SEP : SINGLE) : classOf(cp);
        if (k == WORD) {
          // the folded code point's UTF-8 bytes (2 to 4) into the open token
          const f = foldOf(cp);
          let w: u64, m: u32;
          if (f < 0x800) { w = <u64>(((0xc0 | (f >> 6)) << 8) | (0x80 | (f & 0x3f))); m = 2; }
          else if (f < 0x10000) { w = <u64>(((0xe0 | (f >> 12)) << 16) | ((0x80 | ((f >> 6) & 0x3f)) << 8) | (0x80 | (f & 0x3f))); m = 3; }
          else { w = <u64>(((0xf0 | (f >> 18)) << 24) | ((0x80 | ((f >> 12) & 0x3f)) << 16) | ((0x80 | ((f >> 6) & 0x3f)) << 8) | (0x80 | (f & 0x3f))); m = 4; }
          const total = accN + m;
          if (total < 8) {
            acc = (acc << (<u64>m << 3)) | w;
            accN = total;
          } else {
            const rest = total - 8;
            h = pushWord(h, (acc << (<u64>(8 - accN) << 3)) | (w >> (<u64>rest << 3)));
            words++;
            acc = w & ((<u64>1 << (<u64>rest << 3)) - 1);
            accN = rest;
          }
        } else {
          if ((words | accN) != 0) {
            const t = tokenOf(h, words, acc, accN);
            if (buffered) {
              store<u64>(buf + (<usize>n << 3), t);
              if (++n == TOKBUF_CAP) { flushBuffer(n); n = 0; }
            } else deliverUnbuffered(t);
            h = 1; words = 0; acc = 0; accN = 0;
          }
          if (k == SINGLE) {
            // a token of its own: its bytes as they stand (a valid sequence is the code point's only encoding)
            const t = (<u64>1 << (<u64>len << 3)) | raw;
            if (buffered) {
              store<u64>(buf + (<usize>n << 3), t);
              if (++n == TOKBUF_CAP) { flushBuffer(n); n = 0; }
            } else deliverUnbuffered(t);
          }
        }
        p += <usize>len;
        if (p + 16 > end) break;
        b0 = <u32>load<u8>(p);
      }
      if (p != from) continue;
    }
    putState(h, words, acc, accN, n);
    p = special(p, end);
    h = curHash(); words = curWords(); acc = curAcc(); accN = curAccN(); n = bufN();
  }
  putState(h, words, acc, accN, n);
  // the last bytes, fewer than 16
  while (p < end) {
    const c = <u32>load<u8>((markup ? CLS_HTML : CLS_TEXT) + <usize>load<u8>(p));
    if (c >= 0x30) { tokAppend(<u64>c, 1); p++; continue; }
    if (c == 0) { endToken(); p++; continue; }
    p = special(p, end);
  }
  endToken();
}

/** The slow path at p: '<' (markup), '&' (a reference) or a byte ≥ 0x80 (UTF-8); returns the position after it. */
function special(p: usize, end: usize): usize {
  const b = <u32>load<u8>(p);
  if (b >= 0x80) {
    const cp = decode(p, end);
    if (cp < 0) { endToken(); return p + 1; }
    codePoint(<u32>cp);
    return p + decLen;
  }
  if (b == 0x3c) {
    const q = skipMarkup(p, end);
    endToken();
    return q != 0 ? q : p + 1;
  }
  const cp = entity(p, end);
  if (cp < 0) { endToken(); return p + 1; }
  codePoint(<u32>cp);
  return p + entLen;
}

/** The byte-at-a-time path: the text sink (canonical text) and char units. */
function byteRun(ptr: usize, len: usize): void {
  let p = ptr;
  const end = ptr + len;
  const tbl = cfgMarkup ? CLS_HTML : CLS_TEXT;
  const cm = charMode;
  while (p < end) {
    const c = <u32>load<u8>(tbl + <usize>load<u8>(p));
    if (c >= 0x30) { tokByte(c); if (cm) endChar(); p++; continue; }
    if (c == 0) { endToken(); p++; continue; }
    p = special(p, end);
  }
  endToken();
}
