// ISO-2022-JP encoding, which neither Node nor iconv-lite ships: JIS X 0208 codes taken from the
// platform's own decoder (TextDecoder('iso-2022-jp') over every two-byte code), so what is encoded
// decodes back exactly. ASCII stays as it is; runs of JIS X 0208 characters go between ESC $ B and
// ESC ( B.

let table: Map<string, [number, number]> | undefined;

function jisTable(): Map<string, [number, number]> {
  if (table) return table;
  const pairs: number[] = [];
  for (let a = 0x21; a <= 0x7e; a++) for (let b = 0x21; b <= 0x7e; b++) pairs.push(a, b);
  const decoded = new TextDecoder('iso-2022-jp').decode(Uint8Array.from([0x1b, 0x24, 0x42, ...pairs, 0x1b, 0x28, 0x42]));
  table = new Map();
  Array.from(decoded).forEach((ch, i) => { if (ch !== '\ufffd' && !table!.has(ch)) table!.set(ch, [pairs[2 * i], pairs[2 * i + 1]]); });
  return table;
}

/** True when ISO-2022-JP holds the character (ASCII, or JIS X 0208). */
export function iso2022jpHolds(ch: string): boolean {
  return ch.charCodeAt(0) < 0x80 || jisTable().has(ch);
}

/** Takes text whose every character ISO-2022-JP holds; returns its bytes (throws on any other). */
export function encodeIso2022jp(text: string): Uint8Array {
  const jis = jisTable();
  const out: number[] = [];
  let kanji = false;
  for (const ch of text) {
    const code = jis.get(ch);
    if (code && !kanji) { out.push(0x1b, 0x24, 0x42); kanji = true; }
    if (!code && kanji) { out.push(0x1b, 0x28, 0x42); kanji = false; }
    if (code) out.push(code[0], code[1]);
    else if (ch.charCodeAt(0) < 0x80) out.push(ch.charCodeAt(0));
    else throw new Error(`ISO-2022-JP holds no ${JSON.stringify(ch)}`);
  }
  if (kanji) out.push(0x1b, 0x28, 0x42);
  return Uint8Array.from(out);
}
