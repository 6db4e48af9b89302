// The charset of a page that declares none (no byte-order mark, no HTTP header, no <meta>) and is
// not UTF-8: a wget mirror keeps no HTTP headers, so a Shift_JIS or windows-1251 site whose server
// sent the charset in its header is undeclared once mirrored. Decoded as UTF-8, every byte of its
// text would become U+FFFD: its words lost, and pages that differ only in them alike.
//
// Each candidate charset decodes 4 KB of the page from its first non-ASCII byte (where its text
// starts, past the head's markup) and is scored by how much of the non-ASCII text it gives is what
// that charset's language is made of: kana and the commonest kanji for Shift_JIS and EUC-JP, the
// commonest simplified (GB18030) or traditional (Big5) Han characters, the commonest Hangul
// syllables (EUC-KR), the commonest lowercase Russian (windows-1251, KOI8-R: the other decoding of
// the same bytes swaps case), Greek (windows-1253), Arabic (windows-1256) or Hebrew (windows-1255)
// letters in words of their own, accented Latin letters beside ASCII ones or alone (windows-1252,
// the HTML standard's default for undeclared pages; Turkish ones for windows-1254, ISO-8859-9's
// superset), the commonest Thai characters in runs of several, each where Thai writes it
// (windows-874, taken only on 0.65 of the text or more); decoding errors count against. A wrong
// decoding spreads over rare characters, so the right one scores several times higher. The
// character lists (charset-lists.ts) are the commonest of each language's script in translated
// text that no evaluation crawl holds: manual pages, the GNOME help and VLC's messages (they hold
// 66-93% of that text's characters of their script; eval/manuals/charset-lists.ts derives them).
//
// A page read so as windows-1252 (or windows-1254) may be Central European (windows-1250,
// ISO-8859-2) or Vietnamese (windows-1258), charsets that turn a Western page's accented letters
// into other letters (ñ→ń, è→č, ø→ř, ã→ă): which it is, its letters' frequencies cannot tell, but
// whether one language writes them all can. Its first 64 KB's non-ASCII bytes beside an ASCII
// letter are counted, and each reading is scored by its language that writes the most of them
// (Spanish, French, Danish... in windows-1252; Czech, Polish, Hungarian... in windows-1250 and
// ISO-8859-2; Vietnamese): the main Western languages less their letters where they do not write
// them (Poèetak, mùže, koñ for Početak, může, koń), Vietnamese less tone marks after a consonant.
// The other reading is taken when it beats the Western one by 3 bytes (Vietnamese: 8): one
// Central European letter in an English page is no evidence. windows-1250 and ISO-8859-2 differ
// in a few letters (š ž ś ź ť ą ľ); the one that explains more wins, or windows-1250 when the
// page has bytes 0x80-0x9f (its š ž ś ź ť, quotes and dashes; C1 controls in ISO-8859-2).
// (windows-1258 writes most Vietnamese tone marks as combining characters: its text is right,
// but not in the precomposed form of a UTF-8 copy.)
// Plain TypeScript and TextDecoder: the same answer in Node and browsers.

import { decodeText } from './decode-text.js';
import { AR_COMMON, EL_COMMON, HE_COMMON, JA_COMMON, KO_COMMON, RU_COMMON, SC_COMMON, TC_COMMON, TH_COMMON } from './charset-lists.js';
import { utf8Counts } from './sniff.js';

/** Bytes looked at: whether the page is UTF-8 is decided on its first 64 KB, its charset on 4 KB of them, a Latin charset's family on all 64 KB (0.3 ms a page). */
const SNIFF_BYTES = 65536, SAMPLE_BYTES = 4096;

const isAsciiLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

// What each BMP character is, as bits: one table look-up per character and candidate.
const KANA = 1, JA = 2, SC = 4, TC = 8, KO = 16, RU = 32, EL = 64, AR = 128, HE = 256, LATIN1 = 512, TR = 1024, TH = 2048;
/** Turkish letters outside ASCII: windows-1254 (ISO-8859-9) puts ğ ı ş where windows-1252 has ð ý þ. */
const TR_LETTERS = 'çğıöşüÇĞİÖŞÜ';
/** Latin-1 letters only Icelandic and Faroese write: as windows-1252 they are a Turkish page's ğ ı ş, so they are no evidence for it. */
const ICELANDIC = 'ðýþÐÝÞ';
let flags: Uint16Array | undefined;
function flagTable(): Uint16Array {
  if (flags) return flags;
  const f = new Uint16Array(65536);
  const mark = (chars: string, bit: number) => { for (const ch of chars) f[ch.charCodeAt(0)] |= bit; };
  for (let c = 0x3040; c < 0x3100; c++) f[c] |= KANA;
  for (let c = 0xc0; c <= 0xff; c++) if (c !== 0xd7 && c !== 0xf7 && !ICELANDIC.includes(String.fromCharCode(c))) f[c] |= LATIN1;
  mark(TR_LETTERS, TR);
  mark(JA_COMMON, JA); mark(SC_COMMON, SC); mark(TC_COMMON, TC); mark(KO_COMMON, KO);
  mark(RU_COMMON, RU); mark(EL_COMMON, EL); mark(AR_COMMON, AR); mark(HE_COMMON, HE); mark(TH_COMMON, TH);
  return (flags = f);
}

/** Longest run of non-ASCII characters a word of an alphabetic script is taken to be. */
const WORD = 24;
/** Shortest run of non-ASCII characters Thai is taken to be: Thai writes no spaces between words, and a Western page's accented letters, one or two together, decode as Thai ones. */
const THAI_RUN = 3;

const isThaiConsonant = (c: number) => c >= 0xe01 && c <= 0xe2e;
/**
 * Whether the Thai character at k stands where Thai writes it: a consonant anywhere, a vowel
 * written before its consonant (เ แ โ ใ ไ) before one, the other vowels and the tone marks after a
 * consonant or another of them. Other text decoded as windows-874 breaks these rules at random.
 */
function thaiPlaced(t: string, k: number): boolean {
  const c = t.charCodeAt(k);
  if (isThaiConsonant(c)) return true;
  if (c >= 0xe40 && c <= 0xe44) return isThaiConsonant(t.charCodeAt(k + 1));
  const p = t.charCodeAt(k - 1);
  return isThaiConsonant(p) || p === 0xe31 || (p >= 0xe34 && p <= 0xe3a) || (p >= 0xe47 && p <= 0xe4e);
}

/**
 * Where a candidate's characters count: anywhere (a script without spaces); in a word of their
 * own (an alphabet: not beside an ASCII letter, in a run of non-ASCII characters no longer than a
 * word, as text in a script without spaces decoded as an alphabet is one long run); beside an
 * ASCII letter or alone (accented Latin letters: inside words, or Italian è and French à); or in
 * a run of at least THAI_RUN non-ASCII characters, where Thai writes it (thaiPlaced).
 */
const ANYWHERE = 0, OWN_WORD = 1, IN_LATIN_WORD = 2, IN_RUN = 3;

/** The candidates, in the order ties are broken; windows-1252 is also the answer when none scores. */
const CANDIDATES: ReadonlyArray<[charset: string, bits: number, where: number]> = [
  ['windows-1252', LATIN1, IN_LATIN_WORD],
  // after windows-1252: a Western page decodes the same in both but for ð ý þ, and scores higher there
  ['windows-1254', TR, IN_LATIN_WORD],
  ['shift_jis', KANA | JA, ANYWHERE],
  ['euc-jp', KANA | JA, ANYWHERE],
  // gb18030, not gbk: the same two-byte table, and its four-byte sequences decode too
  ['gb18030', SC, ANYWHERE],
  ['big5', TC, ANYWHERE],
  ['euc-kr', KO, ANYWHERE],
  ['windows-1251', RU, OWN_WORD],
  ['koi8-r', RU, OWN_WORD],
  ['windows-1253', EL, OWN_WORD],
  ['windows-1256', AR, OWN_WORD],
  ['windows-1255', HE, OWN_WORD],
  // TIS-620 and ISO-8859-11 are its subsets
  ['windows-874', TH, IN_RUN],
];

/** A best score under this (hits less twice the errors, per non-ASCII character) is no evidence: windows-1252. */
const FLOOR = 0.2;
/**
 * Thai's floor, and the fewest Thai characters it is taken on: Thai text scores 0.75-0.9; Chinese,
 * Russian or Western text decoded as windows-874 0.5 (its consonants are half the bytes above
 * 0xa0), but more on a handful of characters.
 */
const THAI_FLOOR = 0.65, THAI_HITS = 16;

// Pages in the other Latin charsets. windows-1250 and ISO-8859-2 (Central European) and
// windows-1258 (Vietnamese) give the bytes of a Western page letters too (ñ→ń, ø→ř, è→č, ì→ě,
// ù→ů, ¿→ż, æ→ć; ã→ă, õ→ơ), so letters alone do not tell them apart: what tells is whether one
// language writes them all. Each reading is scored by the language of its family that explains
// the most of the page's non-ASCII bytes beside an ASCII letter, in its first 64 KB.

/**
 * The letters outside ASCII of Spanish and Galician, Portuguese, French, Italian, Catalan, German,
 * Dutch, Danish and Norwegian, Swedish, Finnish and Estonian, which write è ò æ ì ù ñ õ ã only in
 * some places (MISPLACED); and of Occitan (èi, èu), Icelandic and Faroese, Scottish Gaelic and
 * Sardinian (ì ù inside words) and Breton (ñ ending a word), which write them anywhere.
 */
const WESTERN = ['áéíóúñü', 'áâãàçéêíóôõú', 'àâæçéèêëîïôœùûüÿ', 'àèéìíîòóùú', 'àçéèíïòóúü', 'äöüß', 'áéèëïóöü', 'æøåéó', 'åäöé', 'äöåõüšž'];
const WESTERN_FREE = ['àáèéíòóúçï', 'áéíóúýæöðþø', 'àèìòùáéó', 'âêîôûùüñé'];
/**
 * Czech, Slovak, Polish, Hungarian, Croatian and Slovenian, and Romanian (ș ț, and ş ţ as its
 * legacy pages write them), less rare letters on the bytes of common Western ones (Czech ď ň are
 * ï ò in windows-1252; Slovak ĺ ŕ are å à, and its ä is German, Swedish, Finnish and Estonian).
 */
const CENTRAL = ['áčéěíóřšťúůýž', 'áčďéíľňóôšťúýž', 'ąćęłńóśźż', 'áéíóöőúüű', 'čćđšž', 'ăâîșțşţ'];
/** Vietnamese in windows-1258: its letters, and the tone marks it writes as combining characters after a vowel (TONES; after a consonant, they are a Western ì ò Ì Ò Þ). */
const TONES = '\u0300\u0301\u0303\u0309\u0323', VIETNAMESE = 'àáâãèéêìíòóôõùúýăđơư' + TONES;
/** Marks Western text puts against a word («quoted», ¿Qué, nº, ©2020, µs): ISO-8859-2 reads « » © ® µ as Ť ť Š Ž ľ, so they count for every language. */
const MARKS = '«»¿¡ºª©®µ';
/**
 * MISPLACED: windows-1252 letters where the languages of WESTERN do not write them, each counted
 * against them all; their windows-1250 bytes are common Central European letters. è ò æ before a
 * vowel (Poèetak for Početak: č ň ć), ì ù before a letter (vìt, mùže for vět, může: ě ů; Italian
 * and French end words with them), ñ õ ã at a word's end (ń ő ă: koñ, elsõ, casã).
 */
const BEFORE_VOWEL = 'èòæÈÒÆ', BEFORE_LETTER = 'ìùÌÙ', AT_WORD_END = 'ñõãÑÕÃ';

/**
 * The other Latin readings, and how many more bytes than the best Western language one of their
 * languages must explain. Central European: Western text comes within 2 (a list of names in many
 * languages within 4: a Breton list of language names, Aruá ... Xingú, sinoù, reads as Czech), and
 * one letter (the č of an otherwise English page) is no evidence. Vietnamese: Western text comes
 * within 6, Vietnamese text explains 11 bytes more or (a paragraph) dozens.
 */
const LATIN_READINGS: ReadonlyArray<[charset: string, languages: string[], margin: number]> = [
  ['windows-1250', CENTRAL, 3],
  ['iso-8859-2', CENTRAL, 3],
  ['windows-1258', [VIETNAMESE], 8],
];

/**
 * windows-1252's bytes 0x80-0xff, written out: Node 20's TextDecoder reads its 0x80-0x9f as C1
 * controls (ISO-8859-1), browsers as € ‚ ... Š Œ Ž š œ ž Ÿ.
 */
const CP1252_HIGH = '€\x81‚ƒ„…†‡ˆ‰Š‹Œ\x8dŽ\x8f\x90‘’“”•–—˜™š›œ\x9džŸ' + String.fromCharCode(...Array.from({ length: 96 }, (_, i) => 0xa0 + i));

interface LatinTables {
  /** Per language, the bytes (less 0x80) that are its letters or marks in windows-1252, and in each of LATIN_READINGS. */
  western: Uint8Array[]; westernFree: Uint8Array[]; readings: Uint8Array[][];
  /** Per byte less 0x80, as bits: its windows-1252 letter misplaced before a vowel (1), before a letter (2), at a word's end (4); a windows-1258 tone mark (8). */
  rule: Uint8Array;
}
let latin: LatinTables | undefined;
function latinTables(): LatinTables {
  if (latin) return latin;
  const lists = (high: string, languages: string[]) => languages.map((l) => {
    const chars = l + l.toUpperCase() + MARKS;
    return Uint8Array.from([...high].flatMap((ch, b) => (chars.includes(ch) ? [b] : [])));
  });
  const high = (charset: string) => new TextDecoder(charset).decode(Uint8Array.from({ length: 128 }, (_, i) => 0x80 + i));
  const cp1258 = high('windows-1258');
  const rule = Uint8Array.from(CP1252_HIGH, (ch, b) => (BEFORE_VOWEL.includes(ch) ? 1 : 0) | (BEFORE_LETTER.includes(ch) ? 2 : 0)
    | (AT_WORD_END.includes(ch) ? 4 : 0) | (TONES.includes(cp1258[b]) ? 8 : 0));
  return (latin = {
    western: lists(CP1252_HIGH, WESTERN), westernFree: lists(CP1252_HIGH, WESTERN_FREE),
    readings: LATIN_READINGS.map(([charset, languages]) => lists(high(charset), languages)),
    rule,
  });
}

const isVowel = (c: number) => c === 0x61 || c === 0x65 || c === 0x69 || c === 0x6f || c === 0x75 || c === 0x41 || c === 0x45 || c === 0x49 || c === 0x4f || c === 0x55;

/** The most bytes one language of a family explains. */
function bestLanguage(counts: Uint32Array, languages: Uint8Array[]): number {
  let best = 0;
  for (const bytes of languages) {
    let n = 0;
    for (const b of bytes) n += counts[b];
    if (n > best) best = n;
  }
  return best;
}

/**
 * For a page read as windows-1252 (or -1254): the reading of LATIN_READINGS whose best language
 * explains the most of its non-ASCII bytes beside ASCII letters (from `from` on), when that is at
 * least its margin more than the best Western language (of WESTERN less the misplaced letters, or
 * of WESTERN_FREE); else undefined. Between windows-1250 and ISO-8859-2 explaining as many,
 * windows-1250 if the page has a byte 0x80-0x9f (its š ž ś ź ť, quotes and dashes; C1 controls in
 * ISO-8859-2).
 */
function otherLatin(head: Uint8Array, from: number): string | undefined {
  const { western, westernFree, readings, rule } = latinTables();
  const counts = new Uint32Array(128);
  const n = head.length;
  let misplaced = 0, strayTones = 0, c1 = false;
  for (let i = from; i < n; i++) {
    const b = head[i];
    if (b < 0x80) continue;
    if (b < 0xa0) c1 = true;
    const prev = i > 0 ? head[i - 1] : 0, next = i + 1 < n ? head[i + 1] : 0;
    if (!isAsciiLetter(prev) && !isAsciiLetter(next)) continue;
    counts[b - 0x80]++;
    const r = rule[b - 0x80];
    if ((r & 1 && isVowel(next)) || (r & 2 && isAsciiLetter(next)) || (r & 4 && next < 0x80 && !isAsciiLetter(next))) misplaced++;
    if (r & 8 && prev < 0x80 && !isVowel(prev) && (prev | 0x20) !== 0x79) strayTones++;
  }
  const west = Math.max(bestLanguage(counts, western) - misplaced, bestLanguage(counts, westernFree));
  let best: string | undefined, bestCount = 0;
  LATIN_READINGS.forEach(([charset, , margin], k) => {
    const count = bestLanguage(counts, readings[k]) - (charset === 'windows-1258' ? strayTones : 0);
    if (count - west >= margin && (count > bestCount || (count === bestCount && best === 'windows-1250' && !c1))) {
      best = charset; bestCount = count;
    }
  });
  return best;
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Whether bytes are all well-formed UTF-8: Node's native check (`buffer.isUtf8`, reached through
 * `process.getBuiltinModule`, Node 20.16 and later) where there is one, no string made; else a
 * fatal TextDecoder (browsers, older Node). Every page declared or defaulting to UTF-8 is checked.
 */
const isUtf8: (b: Uint8Array) => boolean = (() => {
  const native = (globalThis as { process?: { getBuiltinModule?: (id: string) => { isUtf8?: (b: Uint8Array) => boolean } | undefined } })
    .process?.getBuiltinModule?.('buffer')?.isUtf8;
  if (typeof native === 'function') return native;
  return (b: Uint8Array) => {
    try {
      fatalUtf8.decode(b);
      return true;
    } catch {
      return false;
    }
  };
})();

/**
 * ISO-2022-JP, the 7-bit Japanese encoding of mail and early web pages: no byte above 0x7f, and
 * the escape into JIS X 0208 (ESC $ @ or ESC $ B). As UTF-8 it would read as ASCII gibberish
 * (`$B$3$N%Z!<%8`), so it is looked for before the UTF-8 check.
 */
// Node's Buffer search (a memchr) is about 15× Uint8Array's indexOf on a 64 KB head that holds no
// escape, as nearly every page's does not; browsers have only the latter
const firstByte: (b: Uint8Array, byte: number) => number = typeof Buffer === 'function'
  ? (b, byte) => Buffer.from(b.buffer, b.byteOffset, b.length).indexOf(byte)
  : (b, byte) => b.indexOf(byte);

function isIso2022Jp(head: Uint8Array): boolean {
  let at = firstByte(head, 0x1b);
  if (at < 0) return false;
  for (let i = 0; i < head.length; i++) if (head[i] > 0x7f) return false;
  for (; at >= 0 && at + 2 < head.length; at = head.indexOf(0x1b, at + 1)) {
    if (head[at + 1] === 0x24 && (head[at + 2] === 0x40 || head[at + 2] === 0x42)) return true;
  }
  return false;
}

/**
 * Takes the bytes of a page that declares no charset; returns the charset to decode it with
 * (a WHATWG name): `iso-2022-jp` when its first 64 KB are 7-bit with that encoding's escapes,
 * `utf-8` when they are UTF-8 (a stray invalid byte among many well-formed sequences too), else
 * the candidate whose decoding looks most like text of its language (see the file comment), else
 * `windows-1252`.
 */
export function sniffCharset(bytes: Uint8Array): string {
  const n = Math.min(bytes.length, SNIFF_BYTES);
  const head = bytes.subarray(0, n);
  if (isIso2022Jp(head)) return 'iso-2022-jp';
  // not all UTF-8 (or a sequence cut at the 64 KB mark, which utf8Counts does not count): look closer
  if (isUtf8(head)) return 'utf-8';
  const { invalid, multi } = utf8Counts(head, n);
  if (multi >= 4 * invalid) return 'utf-8';
  // The candidates decode 4 KB from the first non-ASCII byte (where the text is, past the head's
  // markup, styles and scripts), backed up to a byte below 0x40, which no charset here uses as the
  // second byte of a pair.
  let from = 0;
  while (from < n && head[from] < 0x80) from++;
  while (from > 0 && head[from - 1] >= 0x40) from--;
  const sample = head.subarray(from, from + SAMPLE_BYTES);
  let best = 'windows-1252', bestScore = FLOOR;
  const f = flagTable();
  for (const [charset, bits, where] of CANDIDATES) {
    // UTF-16 units: every character scored is in the BMP (a surrogate counts as a character that is no hit)
    const t = decodeText(sample, charset);
    const len = t.length;
    let hits = 0, errors = 0, other = 0;
    for (let i = 0; i < len;) {
      if (t.charCodeAt(i) < 0x80) { i++; continue; }
      let e = i + 1;
      while (e < len && t.charCodeAt(e) >= 0x80) e++;
      // inside a run every neighbour is non-ASCII: only its two ends can touch an ASCII letter
      const run = e - i;
      const before = i > 0 && isAsciiLetter(t.charCodeAt(i - 1)), after = e < len && isAsciiLetter(t.charCodeAt(e));
      for (let k = i; k < e; k++) {
        const c = t.charCodeAt(k);
        other++;
        if (c === 0xfffd) { errors++; continue; }
        if ((f[c] & bits) === 0) continue;
        const touches = (k === i && before) || (k === e - 1 && after);
        if (where === ANYWHERE ? true
          : where === OWN_WORD ? run <= WORD && !touches
          : where === IN_LATIN_WORD ? run === 1 || touches
          : run >= THAI_RUN && thaiPlaced(t, k)) hits++;
      }
      i = e;
    }
    const score = other > 0 ? (hits - 2 * errors) / other : 0;
    if (score > bestScore && (where !== IN_RUN || (score >= THAI_FLOOR && hits >= THAI_HITS))) { best = charset; bestScore = score; }
  }
  return best === 'windows-1252' || best === 'windows-1254' ? otherLatin(head, from) ?? best : best;
}
