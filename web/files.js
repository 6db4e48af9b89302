// Reading dropped or chosen files into documents: folders walked recursively and sorted (as the
// Node folder reader walks them), binary files and unreadable ones reported and skipped, never fatal.

import { fileBytes } from '/dist/advanced-browser.js';

/**
 * Takes a file's path and bytes; returns { bytes, charset } to sketch, or { error } for a binary
 * file: the Node folder reader's own rules (fileBytes), so a folder dropped here becomes the same
 * documents, byte for byte, as `resemble` reads from disk; the browser tests check this on the sample crawl.
 */
export function documentBytes(name, bytes) {
  const r = fileBytes(name, bytes);
  return 'skipped' in r ? { error: `${r.skipped}: skipped` } : { bytes: r.bytes, charset: r.charset };
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
