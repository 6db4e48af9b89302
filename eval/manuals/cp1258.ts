// Vietnamese as windows-1258 writes it, for the crawls' mirrors (layout.ts) and the charset tests:
// no encoder decomposes precomposed Vietnamese letters into the letters and combining tone marks
// that charset holds, so this does, before the text is encoded.

const held = new Set(new TextDecoder('windows-1258').decode(Uint8Array.from({ length: 128 }, (_, i) => 0x80 + i)));

/** Takes text; returns it with each letter windows-1258 does not hold written as one it holds and a combining tone mark (ệ as ê and U+0323). */
export function cp1258Form(text: string): string {
  return [...text].map((ch) => {
    if (ch < '\x80' || held.has(ch)) return ch;
    const d = ch.normalize('NFD');
    for (let j = 1; j < d.length; j++) {
      const rest = (d.slice(0, j) + d.slice(j + 1)).normalize('NFC');
      if (held.has(d[j]) && (rest < '\x80' || held.has(rest))) return rest + d[j];
    }
    return ch;
  }).join('');
}
