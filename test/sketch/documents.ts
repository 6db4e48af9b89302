// Random documents for the sketch kernels' tests: words with some markup, and byte soups of every
// tokenizer rule (markup, references, scripts, case, CJK and Thai, invalid UTF-8).
import { rng, randomWords } from '../helpers/random.js';

/** Takes a seed and a count; returns documents of 0, 1, 3, 7, 8, 9, 40, 200 and 1500 words in turn. */
export function docs(seed: number, count: number): string[] {
  const r = rng(seed);
  return Array.from({ length: count }, (_, i) => {
    const n = [0, 1, 3, 7, 8, 9, 40, 200, 1500][i % 9];
    const words = randomWords(r, n, 60 + i);
    if (i % 4 === 1) return `<p>${words.join(' <b>x</b> ')}</p>`;
    return words.join(r() < 0.5 ? ' ' : '\n');
  });
}

const enc = new TextEncoder();

// Pieces that exercise every rule: markup, references, scripts, case, scripts without spaces, invalid UTF-8.
export const PIECES: Array<string | number[]> = [
  'word', 'Word', 'WORD', 'Supercalifragilisticexpialidocious', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghij', 'x1y2z3w4v5u6', ' ', '  ', '\n', '\t', 'don\'t', 'e-mail', 'x_y', '3.14', '1,000', '!', '?', '<', '>', '&', ';', '=', '"', "'",
  '<p>', '</p>', '<br/>', '<a href="x>y">', "<a title='a>b'>", '<img src=x alt=">">', '<div class="c" >', '<P CLASS=Z>', '< p>', '<3', '</ >', '<//x>',
  '<script>var a = "<p>hidden</p>";</script>', '<SCRIPT type="t">if (a<b) x()</SCRIPT >', '<style>p{color:red}</style>', '<Style>x</STYLE>',
  '<scripts>not script</scripts>', '<!-- comment <p> -->', '<!---->', '<!DOCTYPE html>', '<?xml version="1.0"?>', '<!', '<!-', '<',
  '&amp;', '&lt;', '&eacute;', '&Eacute;', '&#233;', '&#xE9;', '&#X4E2D;', '&#20013;', '&#0;', '&#1114112;', '&#xD800;', '&nbsp;', '&mdash;', '&hellip;',
  '&bogus;', '&amp', '&#;', '&#x;', '&#12345678901;', '&ndash', '&', '&;', '&AElig;', '&yuml;', '&Yuml;',
  'Héllo', 'ÀÉÎÕÜ', 'ÆØÅ', 'ß', 'ẞ', 'Straße', 'İstanbul', 'ĲŒ', 'Ωμέγα', 'ΆΈΉΊΌΎΏ', 'ΣΊΣΥΦΟΣ', 'ПРИВЕТ', 'Ёж', 'Ѣѣ', 'Ԁ', 'Ա', 'ÿŸ',
  'Ｆｕｌｌ', '中文', '日本語のテキスト', 'ｶﾀｶﾅ', 'ภาษาไทย', 'ພາສາລາວ', 'ខ្មែរ', 'မြန်မာ', '한국어 텍스트', 'עברית', 'العربية', 'हिन्दी',
  'e\u0301', '\u00a0', '\u2014', '\u201cquoted\u201d', '\u3000', '、。', '😀', '👍🏽', '\ufeff', '\ufffd', '€100', '½', 'µm', 'ª', 'º', '²',
  [0xff], [0xc0, 0x80], [0xe2, 0x82], [0xe2, 0x28, 0xa1], [0xed, 0xa0, 0x80], [0xf0, 0x80, 0x80, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x80], [0xc3], [0x00], [0x7f],
];

/** Takes a random source and a piece count; returns a document of that many random PIECES. */
export function randomDoc(r: () => number, n: number): Uint8Array {
  const parts: Uint8Array[] = [];
  for (let i = 0; i < n; i++) {
    const p = PIECES[Math.floor(r() * PIECES.length)];
    parts.push(typeof p === 'string' ? enc.encode(p) : Uint8Array.from(p));
  }
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}
