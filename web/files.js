// Reading dropped or chosen files into documents: folders walked recursively and sorted (as the
// Node folder reader walks them), binary files and unreadable ones reported and skipped, never fatal.

// The rules of the Node folder reader (src/io/sniff.ts, charset.ts, make-document.ts), so a folder
// dropped here becomes the same documents, byte for byte, as `resemble` reads from disk; the browser
// tests check this on the sample crawl.
const HTML_EXTENSIONS = new Set(['html', 'htm', 'shtml', 'xhtml', 'php', 'asp', 'aspx', 'jsp', 'cfm', 'cgi']);
const BINARY_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'ico', 'bmp', 'tif', 'tiff', 'avif', 'pdf', 'zip', 'gz', 'tgz',
  'bz2', 'xz', '7z', 'rar', 'tar', 'exe', 'bin', 'wasm', 'woff', 'woff2', 'ttf', 'otf', 'eot', 'mp3', 'ogg', 'wav', 'mp4', 'webm',
  'avi', 'mov', 'swf', 'doc', 'xls', 'ppt', 'docx']);
const KNOWN_TEXT = new Set(['txt', 'text', 'md', 'csv', 'tsv', 'css', 'js', 'mjs', 'json', 'xml', 'rss', 'atom', 'svg']);
// A binary file shows itself in its first kilobytes; a charset declaration sits near the top.
const SNIFF_BYTES = 65536;
const META_SCAN_BYTES = 8192;
const META_CHARSET = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([A-Za-z0-9_:.+-]+)/i;
const latin1 = new TextDecoder('latin1');

function extension(name) {
  const base = name.slice(name.lastIndexOf('/') + 1).split('?')[0];
  const dot = base.lastIndexOf('.');
  return dot <= 0 || dot === base.length - 1 ? '' : base.slice(dot + 1).toLowerCase();
}

function invalidUtf8Bytes(b, n) {
  let bad = 0, i = 0;
  while (i < n) {
    const c = b[i];
    const need = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (need < 0) { bad++; i++; continue; }
    let ok = i + need < n || need === 0;
    for (let k = 1; ok && k <= need; k++) ok = (b[i + k] & 0xc0) === 0x80;
    if (ok) i += need + 1;
    else if (i + need >= n) break;
    else { bad++; i++; }
  }
  return bad;
}

/** Takes bytes; returns the offset showing they are binary (a NUL, or mostly invalid UTF-8 with control bytes), else -1. */
function binaryAt(bytes) {
  const n = Math.min(bytes.length, SNIFF_BYTES);
  let controls = 0;
  for (let i = 0; i < n; i++) {
    const c = bytes[i];
    if (c === 0) return i;
    if (c < 0x20 && c !== 9 && c !== 10 && c !== 13 && c !== 12 && c !== 27) controls++;
  }
  if (n === 0 || controls <= n * 0.01) return -1;
  return invalidUtf8Bytes(bytes, n) > n * 0.3 ? 0 : -1;
}

function looksLikeHtml(bytes) {
  const head = latin1.decode(bytes.subarray(0, 1024)).replace(/^\uFEFF|^ï»¿/, '').trimStart().toLowerCase();
  return /^(<!doctype html|<html|<head|<body|<!--|<meta|<title)/.test(head);
}

function canonicalCharset(label) {
  try { return new TextDecoder(label.trim()).encoding; } catch { return undefined; }
}

function htmlCharset(bytes) {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  const m = META_CHARSET.exec(latin1.decode(bytes.subarray(0, META_SCAN_BYTES)));
  const found = m ? canonicalCharset(m[1]) : undefined;
  // A meta tag is read from ASCII-compatible bytes, so it cannot truthfully declare UTF-16.
  return found === undefined ? 'utf-8' : found.startsWith('utf-16') ? 'utf-8' : found;
}

/**
 * Takes a file's path and bytes; returns { bytes, charset } to sketch (HTML in another charset is
 * decoded and re-encoded as UTF-8, as the Node reader does), or { error } for a binary file.
 */
export function documentBytes(name, bytes) {
  const ext = extension(name);
  if (BINARY_EXTENSIONS.has(ext)) return { error: `binary file type (.${ext}), not HTML or text: skipped` };
  let html = HTML_EXTENSIONS.has(ext);
  if (!html) {
    const at = binaryAt(bytes);
    if (at >= 0) return { error: `binary content${bytes[at] === 0 ? ` (a NUL byte at offset ${at})` : ''}, not HTML or text: skipped` };
    html = !KNOWN_TEXT.has(ext) && looksLikeHtml(bytes);
  }
  if (!html) return { bytes, charset: 'utf-8' };
  const charset = htmlCharset(bytes);
  if (charset === 'utf-8') return { bytes, charset };
  return { bytes: new TextEncoder().encode(new TextDecoder(charset).decode(bytes)), charset };
}

/** Orders paths as a walk that sorts each folder's names does (so 'a/z' comes before 'a-b/c'). */
export function comparePaths(a, b) {
  const x = a.split('/'), y = b.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  }
  return x.length - y.length;
}

/** Takes File objects (with webkitRelativePath when from a folder); resolves to { docs, errors } sorted by path. */
export async function readFiles(files) {
  const list = [...files].map((f) => ({ file: f, path: f.webkitRelativePath || f.relativePath || f.name }));
  list.sort((a, b) => comparePaths(a.path, b.path));
  const docs = [], errors = [];
  for (const { file, path } of list) {
    let bytes;
    try {
      bytes = new Uint8Array(await file.arrayBuffer());
    } catch (e) {
      errors.push({ name: path, message: `could not be read: ${e.message}` });
      continue;
    }
    const doc = documentBytes(path, bytes);
    if (doc.error) errors.push({ name: path, message: doc.error });
    else docs.push({ name: path, bytes: doc.bytes, charset: doc.charset });
  }
  return { docs, errors };
}

/** Takes a drop's DataTransfer; resolves to its files, folders walked recursively (relativePath set). */
export async function droppedFiles(dataTransfer) {
  const entries = [...dataTransfer.items].map((item) => item.webkitGetAsEntry?.()).filter(Boolean);
  if (entries.length === 0) return [...dataTransfer.files];
  const out = [];
  const walk = async (entry, prefix) => {
    if (entry.isFile) {
      const file = await new Promise((ok, fail) => entry.file(ok, fail));
      file.relativePath = prefix + entry.name;
      out.push(file);
      return;
    }
    const reader = entry.createReader();
    // readEntries returns at most ~100 entries a call: read until it returns none.
    for (;;) {
      const batch = await new Promise((ok, fail) => reader.readEntries(ok, fail));
      if (batch.length === 0) break;
      for (const child of batch) await walk(child, `${prefix}${entry.name}/`);
    }
  };
  for (const entry of entries) await walk(entry, '');
  return out;
}

/** Takes pasted text; returns one document per block between lines holding only `---`. */
export function pastedDocuments(text, firstNumber) {
  return text.split(/^\s*---\s*$/m).map((t) => t.trim()).filter((t) => t.length > 0)
    .map((t, i) => ({ name: `pasted-${firstNumber + i}.txt`, bytes: new TextEncoder().encode(t), charset: 'utf-8' }));
}
