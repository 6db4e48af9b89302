/**
 * The slow, obvious canonicalizer, twin of assembly/tokens.ts (tk_*: canonicalize.ts, classify.ts,
 * entities.ts, emit.ts): decode the UTF-8 (invalid bytes become U+FFFD), then walk the code
 * points with the rules of docs/FORMATS.md written as plain range tables; token fingerprints are
 * the BigInt Rabin of each token.
 */
import { rabinRef } from './rabin.js';
import { ENTITIES } from '../sketch/entities.js';

const SEP = 0, WORD = 1, SINGLE = 2;

// [from, to) ranges for code points ≥ 0x100, first match wins; below 0x100 see classOf.
const RANGES: Array<[number, number, number]> = [
  [0x0100, 0x0e00, WORD], [0x0e00, 0x0f00, SINGLE], [0x1000, 0x10a0, SINGLE], [0x1780, 0x1800, SINGLE],
  [0x2000, 0x2070, SEP], [0x20a0, 0x2c00, SEP], [0x2e00, 0x2e80, SEP], [0x3000, 0x3040, SEP],
  [0x3040, 0x3100, SINGLE], [0x31f0, 0x3200, SINGLE], [0x3400, 0x4dc0, SINGLE], [0x4e00, 0xa000, SINGLE],
  [0xd800, 0xe000, SEP], [0xf900, 0xfb00, SINGLE], [0xfe30, 0xfe70, SEP], [0xff00, 0xff10, SEP],
  [0xff1a, 0xff21, SEP], [0xff3b, 0xff41, SEP], [0xff5b, 0xff66, SEP], [0xff66, 0xffa0, SINGLE],
  [0xfff0, 0x10000, SEP], [0xfeff, 0xff00, SEP], [0x1f000, 0x1fb00, SEP], [0x20000, 0x30000, SINGLE],
];

export function classOfRef(cp: number): number {
  if (cp < 0x80) return /[0-9A-Za-z]/.test(String.fromCharCode(cp)) ? WORD : SEP;
  if (cp < 0x100) return [0xaa, 0xb5, 0xba].includes(cp) ? WORD : cp < 0xc0 || cp === 0xd7 || cp === 0xf7 ? SEP : WORD;
  for (const [a, b, c] of RANGES) if (cp >= a && cp < b) return c;
  return cp > 0x10ffff ? SEP : WORD;
}

// Case pairs: [from, to] inclusive, the rule, as in docs/FORMATS.md.
export function foldRef(cp: number): number {
  const even = (a: number, b: number) => cp >= a && cp <= b && cp % 2 === 0;
  const odd = (a: number, b: number) => cp >= a && cp <= b && cp % 2 === 1;
  if (cp >= 0x41 && cp <= 0x5a) return cp + 32;
  if (cp >= 0xc0 && cp <= 0xde && cp !== 0xd7) return cp + 32;
  if (even(0x100, 0x137) || odd(0x139, 0x148) || even(0x14a, 0x177) || odd(0x179, 0x17e)) return cp + 1;
  if (cp === 0x178) return 0xff;
  if (cp >= 0x391 && cp <= 0x3a9 && cp !== 0x3a2) return cp + 32;
  const greek: Record<number, number> = { 0x3c2: 0x3c3, 0x386: 0x3ac, 0x388: 0x3ad, 0x389: 0x3ae, 0x38a: 0x3af, 0x38c: 0x3cc, 0x38e: 0x3cd, 0x38f: 0x3ce };
  if (cp in greek) return greek[cp];
  if (cp >= 0x400 && cp < 0x410) return cp + 0x50;
  if (cp >= 0x410 && cp < 0x430) return cp + 0x20;
  if (even(0x460, 0x481) || even(0x48a, 0x4bf) || even(0x4d0, 0x52f)) return cp + 1;
  if (cp >= 0x531 && cp <= 0x556) return cp + 0x30;
  if (even(0x1e00, 0x1e95) || even(0x1ea0, 0x1eff)) return cp + 1;
  if (cp === 0x1e9e) return 0xdf;
  if (cp >= 0xff21 && cp <= 0xff3a) return cp + 0x20;
  return cp;
}

// The named references: the library's one table (the kernel's is generated from it).
export { ENTITIES };

const isAsciiAlpha = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isAsciiAlnum = (c: number) => isAsciiAlpha(c) || (c >= 0x30 && c <= 0x39);
const asciiLower = (c: number) => (c >= 0x41 && c <= 0x5a ? c + 32 : c);
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0c;

/** Index after the first occurrence of `s` at or after i (ASCII, optionally case-insensitive), or the end. */
function after(cps: number[], i: number, s: string, ci: boolean): number {
  for (let p = i; p + s.length <= cps.length; p++) {
    let ok = true;
    for (let j = 0; j < s.length && ok; j++) ok = (ci ? asciiLower(cps[p + j]) : cps[p + j]) === s.charCodeAt(j);
    if (ok) return p + s.length;
  }
  return cps.length;
}

/** Index after the '>' closing a tag; a quote right after '=' opens a value that may hold '>'. */
function tagEnd(cps: number[], i: number): number {
  let prev = 0;
  while (i < cps.length) {
    const c = cps[i];
    if (c === 0x3e) return i + 1;
    if ((c === 0x22 || c === 0x27) && prev === 0x3d) {
      i++;
      while (i < cps.length && cps[i] !== c) i++;
      if (i < cps.length) i++;
      prev = c;
      continue;
    }
    if (!isSpace(c)) prev = c;
    i++;
  }
  return cps.length;
}

/** If markup starts at i (a '<'), the index after it; else -1. */
export function markupEnd(cps: number[], i: number): number {
  let q = i + 1;
  if (q >= cps.length) return -1;
  if (cps[q] === 0x21) return cps[q + 1] === 0x2d && cps[q + 2] === 0x2d && q + 2 < cps.length ? after(cps, q + 3, '-->', false) : after(cps, q + 1, '>', false);
  if (cps[q] === 0x3f) return after(cps, q + 1, '>', false);
  const closing = cps[q] === 0x2f;
  if (closing) { q++; if (q >= cps.length) return -1; }
  if (!isAsciiAlpha(cps[q])) return -1;
  let name = '';
  while (q < cps.length && isAsciiAlnum(cps[q])) name += String.fromCharCode(asciiLower(cps[q++]));
  const e = tagEnd(cps, q);
  if (!closing && (name === 'script' || name === 'style')) return tagEnd(cps, after(cps, e, `</${name}`, true));
  return e;
}

/** If a character reference starts at i (a '&'): [code point, index after it]; else undefined. */
function reference(cps: number[], i: number): [number, number] | undefined {
  let q = i + 1;
  if (cps[q] === 0x23) {
    q++;
    const hex = cps[q] === 0x78 || cps[q] === 0x58;
    if (hex) q++;
    let digits = '';
    const ok = (c: number) => (c >= 0x30 && c <= 0x39) || (hex && ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66));
    while (q < cps.length && digits.length < 8 && ok(cps[q])) digits += String.fromCharCode(cps[q++]);
    if (!digits) return undefined;
    if (cps[q] === 0x3b) q++;
    const v = parseInt(digits, hex ? 16 : 10);
    return [v === 0 || v > 0x10ffff ? 0xfffd : v, q];
  }
  let name = '';
  while (q < cps.length && name.length < 32 && isAsciiAlnum(cps[q])) name += String.fromCharCode(cps[q++]);
  if (!name || cps[q] !== 0x3b || !(name in ENTITIES)) return undefined;
  return [ENTITIES[name], q + 1];
}

export interface RefTokenOptions { markup?: 'html' | 'text' }

/** Canonical tokens of a document. */
export function tokensRef(input: Uint8Array | string, o: RefTokenOptions = {}): string[] {
  const text = typeof input === 'string' ? input : new TextDecoder().decode(input);
  const cps = Array.from(text, (c) => c.codePointAt(0)!);
  const html = (o.markup ?? 'html') === 'html';
  const tokens: string[] = [];
  let cur = '';
  const end = () => { if (cur) tokens.push(cur); cur = ''; };
  const codePoint = (cp: number) => {
    const k = classOfRef(cp);
    if (k === SEP) end();
    else if (k === SINGLE) { end(); tokens.push(String.fromCodePoint(cp)); }
    else cur += String.fromCodePoint(foldRef(cp));
  };
  let i = 0;
  while (i < cps.length) {
    const c = cps[i];
    if (html && c === 0x3c) {
      const j = markupEnd(cps, i);
      end();
      i = j >= 0 ? j : i + 1;
    } else if (html && c === 0x26) {
      const r = reference(cps, i);
      if (r) { codePoint(r[0]); i = r[1]; } else { end(); i++; }
    } else { codePoint(c); i++; }
  }
  end();
  return tokens;
}

/** The canonical text: tokens joined by single spaces. */
export function canonicalRef(input: Uint8Array | string, o?: RefTokenOptions): string {
  return tokensRef(input, o).join(' ');
}

export interface RefUnitOptions extends RefTokenOptions { unit?: 'word' | 'char' }

const utf8 = new TextEncoder();

/** The canonical units: tokens, or the characters of the canonical text. */
export function unitsRef(doc: Uint8Array | string, o: RefUnitOptions = {}): string[] {
  return o.unit === 'char' ? Array.from(canonicalRef(doc, o)) : tokensRef(doc, o);
}

/** Token fingerprints: Rabin of each unit's UTF-8. */
export function tokenFpsRef(doc: Uint8Array | string, o: RefUnitOptions = {}): bigint[] {
  return unitsRef(doc, o).map((t) => rabinRef(utf8.encode(t)));
}
