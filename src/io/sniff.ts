/**
 * Content types from file extensions and binary sniffing, so that a crawl's images, archives and
 * fonts are skipped (and counted) while its text files are kept.
 */
import { controlBytes } from './byte-kernels.js';

const BY_EXTENSION: Record<string, string> = {
  html: 'text/html', htm: 'text/html', shtml: 'text/html', xhtml: 'text/html',
  // Server-side pages saved by wget are the HTML the server returned.
  php: 'text/html', asp: 'text/html', aspx: 'text/html', jsp: 'text/html', cfm: 'text/html', cgi: 'text/html',
  txt: 'text/plain', text: 'text/plain', md: 'text/markdown', csv: 'text/csv', tsv: 'text/tab-separated-values',
  css: 'text/css', js: 'text/javascript', mjs: 'text/javascript', json: 'application/json',
  xml: 'application/xml', rss: 'application/rss+xml', atom: 'application/atom+xml', svg: 'image/svg+xml',
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp',
  ico: 'image/x-icon', bmp: 'image/bmp', tif: 'image/tiff', tiff: 'image/tiff', avif: 'image/avif',
  pdf: 'application/pdf', zip: 'application/zip', gz: 'application/gzip', tgz: 'application/gzip',
  bz2: 'application/x-bzip2', xz: 'application/x-xz', '7z': 'application/x-7z-compressed', rar: 'application/vnd.rar',
  tar: 'application/x-tar', exe: 'application/octet-stream', bin: 'application/octet-stream', wasm: 'application/wasm',
  woff: 'font/woff', woff2: 'font/woff2', ttf: 'font/ttf', otf: 'font/otf', eot: 'application/vnd.ms-fontobject',
  mp3: 'audio/mpeg', ogg: 'audio/ogg', wav: 'audio/wav', mp4: 'video/mp4', webm: 'video/webm', avi: 'video/x-msvideo',
  mov: 'video/quicktime', swf: 'application/x-shockwave-flash', doc: 'application/msword', xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint', docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

const TEXT_APPLICATION = /^application\/(json|xml|xhtml\+xml|javascript|x-javascript|ecmascript|rss\+xml|atom\+xml|ld\+json)$/;

/** Takes a file name (query already cut off); returns the MIME type its extension implies, or undefined. */
export function contentTypeFromName(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return undefined;
  return BY_EXTENSION[name.slice(dot + 1).toLowerCase()];
}

/** True for MIME types that are text (text/*, JSON, XML, JavaScript, SVG). */
export function isTextType(mime: string): boolean {
  return mime.startsWith('text/') || TEXT_APPLICATION.test(mime) || mime === 'image/svg+xml';
}

/** True for MIME types that are surely binary (images, audio, video, fonts, archives...). */
export function isBinaryType(mime: string): boolean {
  return !isTextType(mime) && /^(image|audio|video|font)\/|^application\//.test(mime);
}

// Sniffing looks at a bounded prefix: a binary file shows itself in the first kilobytes.
const SNIFF_BYTES = 65536;

/**
 * Counts, in the first n bytes, the bytes outside well-formed UTF-8 and the well-formed multi-byte
 * sequences; a sequence cut by the end of the prefix is neither (it is not evidence).
 */
export function utf8Counts(b: Uint8Array, n: number): { invalid: number; multi: number } {
  let invalid = 0, multi = 0, i = 0;
  while (i < n) {
    const c = b[i];
    if (c < 0x80) { i++; continue; }
    const need = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (need < 0) { invalid++; i++; continue; }
    if (i + need >= n) break;
    let ok = true;
    for (let k = 1; ok && k <= need; k++) ok = (b[i + k] & 0xc0) === 0x80;
    if (ok) { multi++; i += need + 1; } else { invalid++; i++; }
  }
  return { invalid, multi };
}

/**
 * Takes file bytes; returns true when they look binary: a NUL byte in the first 64 KB, or more than
 * 30% of bytes outside valid UTF-8 together with more than 1% C0 control characters. The second
 * condition alone would call a Cyrillic windows-1251 text binary; such texts have no controls.
 */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, SNIFF_BYTES);
  const controls = controlBytes(bytes.subarray(0, n));
  if (controls < 0) return true;
  if (n === 0 || controls <= n * 0.01) return false;
  return utf8Counts(bytes, n).invalid > n * 0.3;
}

/** NUL bytes a page may hold per KiB of its first 64 KB and still be text with stray NULs (at least one). */
const STRAY_NULS_PER_KIB = 1;

/**
 * Takes bytes that look binary, declared HTML (`html`) or other text; returns true when they are a
 * page with a few stray NUL bytes in it instead: they hold at most one NUL per KiB of their first
 * 64 KB, without the NULs do not look binary, and (declared HTML) start like HTML
 * (`looksLikeHtml`). Real pages do hold them: Apache Commons Lang's Javadoc of `CharUtils.NUL`
 * quotes the character itself. A NUL run or an image named .html is still binary.
 */
function strayNuls(bytes: Uint8Array, html: boolean): boolean {
  if (html && !looksLikeHtml(bytes)) return false;
  const n = Math.min(bytes.length, SNIFF_BYTES);
  let nuls = 0, controls = 0;
  for (let i = 0; i < n; i++) {
    const c = bytes[i];
    if (c >= 0x20) continue;
    if (c === 0) nuls++;
    else if (c !== 9 && c !== 10 && c !== 13 && c !== 12 && c !== 27) controls++;
  }
  if (nuls > Math.max(1, Math.floor(n / 1024) * STRAY_NULS_PER_KIB)) return false;
  return controls <= n * 0.01 || utf8Counts(bytes, n).invalid <= n * 0.3;
}

function utf16Bom(b: Uint8Array): boolean {
  return (b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff);
}

/**
 * Takes the first bytes of an input (inflated when it was gzip); returns the input kind they look
 * like: a `WARC/` version line, a JSON object per line, a list of http(s) URLs, else one file.
 */
export function sniffKind(head: Uint8Array): 'warc' | 'jsonl' | 'urls' | 'file' {
  const text = new TextDecoder('latin1').decode(head.subarray(0, 4096)).replace(/^\uFEFF|^ï»¿/, '');
  if (text.startsWith('WARC/') || text.startsWith('filedesc://')) return 'warc';
  const start = text.trimStart();
  if (start.startsWith('{')) return 'jsonl';
  const first = start.split('\n').find((l) => l.trim() !== '' && !l.startsWith('#')) ?? '';
  if (/^https?:\/\/\S+(\s+\S+)?\s*$/i.test(first)) return 'urls';
  return 'file';
}

/**
 * Takes the first bytes of a file named `.json`; returns true when they are JSON Lines: an object,
 * then a line that starts another (`}` ending a line and `{` starting the next), which no single
 * JSON document holds at its top level (an array of objects starts with `[`, its objects part with commas).
 */
export function jsonLinesHead(head: Uint8Array): boolean {
  const text = new TextDecoder('latin1').decode(head).replace(/^\uFEFF|^ï»¿/, '').trimStart();
  return text.startsWith('{') && /\}[ \t]*\r?\n\s*\{/.test(text);
}

/** Takes text bytes; returns true when they start like an HTML document (after whitespace and a BOM). */
export function looksLikeHtml(bytes: Uint8Array): boolean {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024)).replace(/^\uFEFF|^ï»¿/, '').trimStart().toLowerCase();
  return /^(<!doctype html|<html|<head|<body|<!--|<meta|<title)/.test(head);
}

/**
 * Takes a declared or extension MIME type (may be undefined) and the bytes; returns the content type to
 * keep the document under, or undefined when it should be skipped as binary. HTML is always kept.
 */
export function classifyContent(declared: string | undefined, bytes: Uint8Array): string | undefined {
  // octet-stream is what servers say when they do not know: sniff instead.
  const mime = declared === 'application/octet-stream' ? undefined : declared;
  // Declared HTML is kept unless its bytes say otherwise (a NUL run, an image named .html); UTF-16 has NULs and a BOM.
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return looksBinary(bytes) && !utf16Bom(bytes) && !strayNuls(bytes, true) ? undefined : 'text/html';
  if (mime !== undefined && isBinaryType(mime)) return undefined;
  // declared text may hold stray NULs too; undeclared bytes with a NUL are binary
  if (looksBinary(bytes) && !(mime !== undefined && isTextType(mime) && strayNuls(bytes, false))) return undefined;
  if (mime !== undefined) return mime;
  return looksLikeHtml(bytes) ? 'text/html' : 'text/plain';
}
