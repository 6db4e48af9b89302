// HTML character references: numeric (&#233; &#xE9;) and the named ones common in web text.
// A name not in this table leaves the '&' as a separator and the name as text.

// Table: for each entry, one length byte, the name, then the code point as 3 bytes (LE).
const NAMES = "amp\x26lt\x3cgt\x3equot\x22apos\x27nbsp\xa0copy\xa9reg\xaeshy\xadiexcl\xa1iquest\xbflaquo\xabraquo\xbbmiddot\xb7deg\xb0para\xb6sect\xa7acute\xb4cedil\xb8times\xd7divide\xf7" +
  "Agrave\xc0Aacute\xc1Acirc\xc2Atilde\xc3Auml\xc4Aring\xc5AElig\xc6Ccedil\xc7Egrave\xc8Eacute\xc9Ecirc\xcaEuml\xcbIgrave\xccIacute\xcdIcirc\xceIuml\xcfNtilde\xd1Ograve\xd2Oacute\xd3Ocirc\xd4Otilde\xd5Ouml\xd6Oslash\xd8Ugrave\xd9Uacute\xdaUcirc\xdbUuml\xdcYacute\xddszlig\xdf" +
  "agrave\xe0aacute\xe1acirc\xe2atilde\xe3auml\xe4aring\xe5aelig\xe6ccedil\xe7egrave\xe8eacute\xe9ecirc\xeaeuml\xebigrave\xeciacute\xedicirc\xeeiuml\xefntilde\xf1ograve\xf2oacute\xf3ocirc\xf4otilde\xf5ouml\xf6oslash\xf8ugrave\xf9uacute\xfaucirc\xfbuuml\xfcyacute\xfdyuml\xff";
// Names above 0xff, as name → code point pairs.
const WIDE_NAMES = "ndash mdash lsquo rsquo sbquo ldquo rdquo bdquo bull hellip prime trade euro larr rarr uarr darr ensp emsp thinsp zwnj zwj lrm rlm OElig oelig Scaron scaron Yuml fnof circ tilde dagger Dagger permil lsaquo rsaquo";
const WIDE_CPS: StaticArray<u32> = [0x2013, 0x2014, 0x2018, 0x2019, 0x201a, 0x201c, 0x201d, 0x201e, 0x2022, 0x2026, 0x2032, 0x2122, 0x20ac, 0x2190, 0x2192, 0x2191, 0x2193, 0x2002, 0x2003, 0x2009, 0x200c, 0x200d, 0x200e, 0x200f, 0x152, 0x153, 0x160, 0x161, 0x178, 0x192, 0x2c6, 0x2dc, 0x2020, 0x2021, 0x2030, 0x2039, 0x203a];

/** The table as built: entries of (length, name, code point as 3 bytes LE); tk_entity_table copies it out. */
export const TABLE: usize = memory.data(2048, 16);
export let tableLen: u32 = 0;

function addEntry(src: string, from: i32, to: i32, cp: u32): void {
  store<u8>(TABLE + tableLen, <u8>(to - from)); tableLen++;
  for (let i = from; i < to; i++) { store<u8>(TABLE + tableLen, <u8>src.charCodeAt(i)); tableLen++; }
  store<u8>(TABLE + tableLen, <u8>(cp & 0xff));
  store<u8>(TABLE + tableLen + 1, <u8>((cp >> 8) & 0xff));
  store<u8>(TABLE + tableLen + 2, <u8>(cp >> 16));
  tableLen += 3;
}

// Built without allocating (the runtime is a stub and the arena starts at __heap_base).
function buildTable(): void {
  let i = 0;
  const n = NAMES.length;
  while (i < n) {   // letters, then one char below 0x100: the code point
    let j = i;
    while (j < n && NAMES.charCodeAt(j) >= 0x41 && NAMES.charCodeAt(j) <= 0x7a) j++;
    addEntry(NAMES, i, j, <u32>NAMES.charCodeAt(j));
    i = j + 1;
  }
  const m = WIDE_NAMES.length;
  let start = 0, k = 0;
  for (let j = 0; j <= m; j++) {
    if (j == m || WIDE_NAMES.charCodeAt(j) == 0x20) { addEntry(WIDE_NAMES, start, j, WIDE_CPS[k]); k++; start = j + 1; }
  }
}
buildTable();

/** Code point of the named reference name[0..len) (case-sensitive), or −1. */
export function namedEntity(ptr: usize, len: u32): i32 {
  let p: u32 = 0;
  while (p < tableLen) {
    const n = <u32>load<u8>(TABLE + p);
    if (n == len && memory.compare(TABLE + p + 1, ptr, len) == 0) {
      const q = TABLE + p + 1 + n;
      return <i32>(<u32>load<u8>(q) | (<u32>load<u8>(q + 1) << 8) | (<u32>load<u8>(q + 2) << 16));
    }
    p += 1 + n + 3;
  }
  return -1;
}
