// Code point classes and case folding for canonical tokens (docs/FORMATS.md, "Tokens").
// Mirrored exactly by src/reference/tokens.ts; change both together and re-pin test vectors.

export const SEP: u32 = 0;    // ends a token
export const WORD: u32 = 1;   // part of a word
export const SINGLE: u32 = 2; // a token of its own (scripts written without spaces)

/** Class of a code point ≥ 0x80. */
export function classOf(cp: u32): u32 {
  if (cp < 0x100) {
    if (cp == 0xaa || cp == 0xb5 || cp == 0xba) return WORD;
    if (cp < 0xc0 || cp == 0xd7 || cp == 0xf7) return SEP;
    return WORD;
  }
  if (cp < 0x0e00) return WORD;                                   // Latin ext., IPA, Greek, Cyrillic, …, Indic
  if (cp < 0x0f00) return SINGLE;                                 // Thai, Lao
  if (cp >= 0x1000 && cp < 0x10a0) return SINGLE;                 // Myanmar
  if (cp >= 0x1780 && cp < 0x1800) return SINGLE;                 // Khmer
  if (cp >= 0x2000 && cp < 0x2070) return SEP;                    // general punctuation, spaces
  if (cp >= 0x20a0 && cp < 0x2c00) return SEP;                    // currency, letterlike, arrows, math, boxes, shapes
  if (cp >= 0x2e00 && cp < 0x2e80) return SEP;                    // supplemental punctuation
  if (cp >= 0x3000 && cp < 0x3040) return SEP;                    // CJK symbols and punctuation
  if (cp >= 0x3040 && cp < 0x3100) return SINGLE;                 // Hiragana, Katakana
  if (cp >= 0x31f0 && cp < 0x3200) return SINGLE;                 // Katakana extension
  if (cp >= 0x3400 && cp < 0x4dc0) return SINGLE;                 // CJK extension A
  if (cp >= 0x4e00 && cp < 0xa000) return SINGLE;                 // CJK unified ideographs
  if (cp >= 0xd800 && cp < 0xe000) return SEP;                    // surrogates (never decoded; from &#xD800;)
  if (cp >= 0xf900 && cp < 0xfb00) return SINGLE;                 // CJK compatibility ideographs
  if (cp >= 0xfe30 && cp < 0xfe70) return SEP;                    // CJK compatibility forms, small forms
  if (cp >= 0xff00 && cp < 0xff10) return SEP;                    // fullwidth punctuation
  if (cp >= 0xff1a && cp < 0xff21) return SEP;
  if (cp >= 0xff3b && cp < 0xff41) return SEP;
  if (cp >= 0xff5b && cp < 0xff66) return SEP;
  if (cp >= 0xff66 && cp < 0xffa0) return SINGLE;                 // halfwidth Katakana
  if (cp >= 0xfff0 && cp < 0x10000) return SEP;                   // specials, U+FFFD, BOM-like
  if (cp == 0xfeff) return SEP;
  if (cp >= 0x1f000 && cp < 0x1fb00) return SEP;                  // emoji and pictographs
  if (cp >= 0x20000 && cp < 0x30000) return SINGLE;               // CJK extensions B…
  if (cp > 0x10ffff) return SEP;
  return WORD;
}

/** Simple lowercase of a code point ≥ 0x80 (Latin-1, Latin Extended-A/Additional, Greek, Cyrillic, Armenian, fullwidth). */
export function foldOf(cp: u32): u32 {
  if (cp < 0x100) return (cp >= 0xc0 && cp <= 0xde && cp != 0xd7) ? cp + 0x20 : cp;
  if (cp < 0x180) {
    if (cp <= 0x137) return (cp & 1) == 0 ? cp + 1 : cp;
    if (cp >= 0x139 && cp <= 0x148) return (cp & 1) == 1 ? cp + 1 : cp;
    if (cp >= 0x14a && cp <= 0x177) return (cp & 1) == 0 ? cp + 1 : cp;
    if (cp == 0x178) return 0xff;
    if (cp >= 0x179 && cp <= 0x17e) return (cp & 1) == 1 ? cp + 1 : cp;
    return cp;
  }
  if (cp < 0x370) return cp;
  if (cp < 0x400) {
    if (cp >= 0x391 && cp <= 0x3a9 && cp != 0x3a2) return cp + 0x20;
    if (cp == 0x3c2) return 0x3c3;                                // final sigma folds to sigma
    if (cp == 0x386) return 0x3ac;
    if (cp >= 0x388 && cp <= 0x38a) return cp + 0x25;
    if (cp == 0x38c) return 0x3cc;
    if (cp == 0x38e || cp == 0x38f) return cp + 0x3f;
    return cp;
  }
  if (cp < 0x530) {
    if (cp < 0x410) return cp + 0x50;
    if (cp < 0x430) return cp + 0x20;
    if ((cp >= 0x460 && cp <= 0x481) || (cp >= 0x48a && cp <= 0x4bf) || (cp >= 0x4d0 && cp <= 0x52f)) return (cp & 1) == 0 ? cp + 1 : cp;
    return cp;
  }
  if (cp >= 0x531 && cp <= 0x556) return cp + 0x30;
  if (cp >= 0x1e00 && cp <= 0x1e95) return (cp & 1) == 0 ? cp + 1 : cp;
  if (cp >= 0x1ea0 && cp <= 0x1eff) return (cp & 1) == 0 ? cp + 1 : cp;
  if (cp == 0x1e9e) return 0xdf;
  if (cp >= 0xff21 && cp <= 0xff3a) return cp + 0x20;
  return cp;
}
