// Canonical tokens from UTF-8 bytes in one pass (docs/FORMATS.md, "Tokens"): markup dropped
// (tags, comments, declarations, <script>/<style> contents) when markup is on, character
// references decoded, case folded, words split at anything that is not a letter or digit,
// scripts written without spaces split into one token per character. Invalid UTF-8 never traps:
// a byte that does not start a valid sequence is a separator.
import { classOf, foldOf, SEP, SINGLE } from './classify';
import { endChar, endToken, fastWords, tokByte, tokTail, tokWord, charMode } from './emit';
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

@inline function isSpace(c: u32): bool { return c == 0x20 || c == 0x09 || c == 0x0a || c == 0x0d || c == 0x0c; }

/**
 * Position after the '>' ending a tag whose name ends at start; a quote right after '=' (spaces
 * allowed between) opens an attribute value that may hold '>'.
 */
function tagEnd(start: usize, end: usize): usize {
  let p = start;
  while (p < end) {
    p = scan3(p, end, 0x3e, 0x22, 0x27);
    if (p >= end) break;
    const c = <u32>load<u8>(p);
    if (c == 0x3e) return p + 1;
    // a quote: a value only when the last non-space byte before it (within the tag) is '='
    let q = p;
    while (q > start && isSpace(<u32>load<u8>(q - 1))) q--;
    p++;
    if (q > start && load<u8>(q - 1) == 0x3d) {
      p = scan3(p, end, c, c, c);
      if (p < end) p++;
    }
  }
  return end;
}

/** True when the ASCII letters at p equal the lowercase name, ignoring case. */
function nameIs(p: usize, name: string): bool {
  for (let i = 0; i < name.length; i++) if (lower(<u32>load<u8>(p + i)) != <u32>name.charCodeAt(i)) return false;
  return true;
}

/** If markup starts at p (a '<'), the position after it; otherwise 0. */
function skipMarkup(p: usize, end: usize): usize {
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
  let p = ptr;
  const end = ptr + len;
  const tbl = cfgMarkup ? CLS_HTML : CLS_TEXT;
  const cm = charMode;
  const fast = fastWords();
  while (p < end) {
    let c = <u32>load<u8>(tbl + <usize>load<u8>(p));
    if (c >= 0x30) {
      if (!fast) { tokByte(c); if (cm) endChar(); p++; continue; }
      // a run of ASCII letters and digits: gather 8 bytes a word, no table look-up per byte
      let w: u64 = 0, n: u32 = 0;
      do {
        w = (w << 8) | <u64>c;
        n++;
        if (n == 8) { tokWord(w); w = 0; n = 0; }
        p++;
        if (p >= end) break;
        c = <u32>load<u8>(tbl + <usize>load<u8>(p));
      } while (c >= 0x30);
      if (n > 0) tokTail(w, n);
      continue;
    }
    if (c == 0) { endToken(); p++; continue; }
    if (c == 3) {
      const cp = decode(p, end);
      if (cp < 0) { endToken(); p++; } else { codePoint(<u32>cp); p += decLen; }
      continue;
    }
    if (c == 1) {
      const q = skipMarkup(p, end);
      endToken();
      p = q != 0 ? q : p + 1;
      continue;
    }
    const cp = entity(p, end);
    if (cp < 0) { endToken(); p++; } else { codePoint(<u32>cp); p += entLen; }
  }
  endToken();
}
