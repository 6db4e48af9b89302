/**
 * One file as the folder reader takes it, without the file system: the rules that skip binaries
 * (by extension, then by sniffing) and decode HTML in another charset, shared by the Node folder
 * reader's documents and the browser demo's dropped files, so both sketch the same bytes.
 */
import { detectCharset } from './charset.js';
import { classifyContent, contentTypeFromName, isBinaryType } from './sniff.js';

/** A file to sketch (its bytes as UTF-8, its content type, the charset it was decoded from), or why it is skipped. */
export type FileBytes = { bytes: Uint8Array; contentType: string; charset: string } | { skipped: string };

const encoder = new TextEncoder();

/** Takes a file's path (or name) and bytes; returns what the folder reader would sketch, or why it skips the file. */
export function fileBytes(path: string, bytes: Uint8Array): FileBytes {
  const name = path.slice(path.lastIndexOf('/') + 1).split('?')[0];
  const mime = contentTypeFromName(name);
  if (mime !== undefined && isBinaryType(mime)) return { skipped: `binary file type (.${name.slice(name.lastIndexOf('.') + 1).toLowerCase()}), not HTML or text` };
  const contentType = classifyContent(mime, bytes);
  if (contentType === undefined) {
    // looksBinary reads the first 64 KB; a NUL there is the usual reason, worth naming.
    const nul = bytes.subarray(0, 65536).indexOf(0);
    return { skipped: `binary content${nul >= 0 ? ` (a NUL byte at offset ${nul})` : ''}, not HTML or text` };
  }
  if (contentType !== 'text/html') return { bytes, contentType, charset: 'utf-8' };
  const { charset } = detectCharset(bytes);
  return { bytes: charset === 'utf-8' ? bytes : encoder.encode(new TextDecoder(charset).decode(bytes)), contentType, charset };
}
