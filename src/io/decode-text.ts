// Decoding a page's bytes in a legacy charset to text, the same in Node and in browsers.
//
// - windows-1252 (the charset of every Latin-1 label): the Encoding Standard maps its bytes
//   0x80-0x9f to € ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ‘ ’ “ ” • – — ˜ ™ š › œ ž Ÿ, as browsers decode them; Node
//   20's TextDecoder leaves them C1 control characters (U+0080-U+009F). They are mapped here after
//   decoding, so both give the standard's text (in browsers it holds no such control character but
//   the five bytes the standard leaves unmapped, which map to themselves).
// - windows-1258 (Vietnamese) writes most tone marks as combining characters after their letter:
//   the text is put in Unicode's composed form (NFC), as Vietnamese pages in UTF-8 write it, so a
//   copy in either charset has the same words.

/** windows-1252's bytes 0x80-0x9f as the Encoding Standard maps them. */
const CP1252_C1 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const C1 = /[\u0080-\u009f]/g;

const canonical = new Map<string, string>();

/** Takes bytes and a charset label TextDecoder knows; returns their text (see the file comment). */
export function decodeText(bytes: Uint8Array, charset: string): string {
  const decoder = new TextDecoder(charset);
  let name = canonical.get(charset);
  if (name === undefined) canonical.set(charset, (name = decoder.encoding));
  const text = decoder.decode(bytes);
  if (name === 'windows-1252') return text.replace(C1, (c) => CP1252_C1[c.charCodeAt(0) - 0x80]);
  if (name === 'windows-1258') return text.normalize('NFC');
  return text;
}
