/**
 * Charset detection and decoding for HTML, in the order browsers use: a byte-order mark, then the
 * HTTP `Content-Type` charset, then a `<meta charset>` / `<meta http-equiv>` declaration near the
 * top, then UTF-8 when the bytes are UTF-8, else the charset sniffed from them (charset-sniff.ts).
 * Decoding is TextDecoder's (Node ships full ICU: windows-1252, iso-8859-x, shift_jis, gbk,
 * euc-kr...) through decodeText (decode-text.ts: windows-1252 as the Encoding Standard maps it in
 * Node too); labels are the WHATWG Encoding labels, so `latin1` means windows-1252.
 */

import { sniffCharset } from './charset-sniff.js';
import { decodeText } from './decode-text.js';

/** Where the charset used for decoding came from. */
export type CharsetSource = 'bom' | 'header' | 'meta' | 'sniffed' | 'default';

/** A decoded page: its text, the canonical charset name used (`utf-8`, `windows-1252`...) and where it came from. */
export interface DecodedHtml {
  text: string;
  charset: string;
  from: CharsetSource;
}

// The HTML standard's prescan reads 1024 bytes; real pages often declare later (long <head>
// comments, scripts), so a few more KB are scanned. The cost is one latin1 decode of 8 KB.
const META_SCAN_BYTES = 8192;
const META_CHARSET = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([A-Za-z0-9_:.+-]+)/i;

/** Takes a charset label; returns its canonical WHATWG name, or undefined when TextDecoder does not know it. */
export function canonicalCharset(label: string | undefined): string | undefined {
  if (!label) return undefined;
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return undefined;
  }
}

/** Takes a Content-Type header value; returns its `charset` parameter (unquoted), or undefined. */
export function charsetFromContentType(contentType: string | null | undefined): string | undefined {
  if (!contentType) return undefined;
  const m = /;\s*charset\s*=\s*["']?([^"';\s]+)/i.exec(contentType);
  return m ? m[1] : undefined;
}

/** Takes a Content-Type header value; returns the MIME type without parameters, lowercased, or undefined. */
export function mimeOf(contentType: string | null | undefined): string | undefined {
  if (!contentType) return undefined;
  const mime = contentType.split(';')[0].trim().toLowerCase();
  return mime || undefined;
}

function bomCharset(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

// One character per byte, for the meta scan: Node's latin1 (a copy into a one-byte string) is
// about 20× a TextDecoder. The tag and its charset are ASCII, so windows-1252, which TextDecoder
// gives for 'latin1' and browsers use, matches the same (its other characters differ only in
// 0x80-0x9F, none of them a space, a word character or '>').
const latin1: (b: Uint8Array) => string = typeof Buffer === 'function'
  ? (b) => Buffer.from(b.buffer, b.byteOffset, b.length).toString('latin1')
  : (b) => new TextDecoder('latin1').decode(b);

/** Takes the first bytes of a page; returns the charset its `<meta>` declares (canonical), or undefined. */
export function metaCharset(bytes: Uint8Array): string | undefined {
  const head = latin1(bytes.subarray(0, META_SCAN_BYTES));
  const m = META_CHARSET.exec(head);
  const found = canonicalCharset(m?.[1]);
  // A meta tag is read from ASCII-compatible bytes, so it cannot truthfully declare UTF-16 (HTML §13.2.3.3).
  return found?.startsWith('utf-16') ? 'utf-8' : found;
}

/**
 * Takes page bytes and the HTTP header charset (if any); returns the charset to decode with and
 * where it came from, without decoding: `default` (UTF-8) for undeclared pages that are UTF-8,
 * `sniffed` for undeclared pages that are not (`sniffCharset`), and for pages declared UTF-8 whose
 * bytes mostly are not (a legacy page under a template's or a server's default declaration, or
 * re-encoded without its declaration changed). `checkUtf8` false: bytes known to be UTF-8 (a JSON
 * string's) are not looked at.
 */
export function detectCharset(bytes: Uint8Array, headerCharset?: string, checkUtf8 = true): { charset: string; from: CharsetSource } {
  const bom = bomCharset(bytes);
  if (bom) return { charset: bom, from: 'bom' };
  const declared = (charset: string, from: CharsetSource): { charset: string; from: CharsetSource } => {
    if (charset !== 'utf-8' || !checkUtf8) return { charset, from };
    const sniffed = sniffCharset(bytes);
    return sniffed === 'utf-8' ? { charset, from } : { charset: sniffed, from: 'sniffed' };
  };
  const header = canonicalCharset(headerCharset);
  if (header) return declared(header, 'header');
  const meta = metaCharset(bytes);
  if (meta) return declared(meta, 'meta');
  const sniffed = sniffCharset(bytes);
  return sniffed === 'utf-8' ? { charset: 'utf-8', from: 'default' } : { charset: sniffed, from: 'sniffed' };
}

/** Takes page bytes and the HTTP header charset (if any); returns the decoded text and the charset used. */
export function decodeHtml(bytes: Uint8Array, headerCharset?: string): DecodedHtml {
  const { charset, from } = detectCharset(bytes, headerCharset);
  return { text: decodeText(bytes, charset), charset, from };
}
