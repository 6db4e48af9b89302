// What the benchmarks run on: real HTML (the bundled sample crawl, or the user's files) and
// buffers of chosen sizes cut from it, so every task of one run reads the same bytes.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { optionError, ResembleError } from '../errors.js';
import { Random } from '../random.js';

/** Documents to benchmark on, with their total size. */
export interface Corpus {
  /** What they are, for the table: "sample crawl" or the paths given. */
  name: string;
  docs: Uint8Array[];
  bytes: number;
}

/** Takes nothing; returns the bundled sample folder (found upward from this module: sources and dist alike), or undefined. */
export function findSample(): string | undefined {
  let dir = new URL('.', import.meta.url);
  for (let up = 0; up < 5; up++) {
    const candidate = new URL('sample/', dir);
    if (candidate.protocol === 'file:' && existsSync(fileURLToPath(new URL('hosts.txt', candidate)))) return fileURLToPath(candidate);
    dir = new URL('..', dir);
  }
  return undefined;
}

/** Takes a folder of pages (default: the bundled sample crawl) and its name in the table; returns its HTML pages in sorted path order. */
export function loadSample(dir = findSample(), name = 'sample crawl'): Corpus {
  if (dir === undefined) throw new ResembleError('E_IO', 'the bundled sample crawl was not found beside the package; give files to benchmark on');
  const paths = walk(dir).filter((p) => /\.html?$/i.test(p));
  if (paths.length === 0) throw new ResembleError('E_INPUT', `no .html pages under ${dir}`);
  return { name, ...read(paths) };
}

/** Takes files and folders (folders walked in sorted order); returns every file as one document. */
export function loadFiles(paths: readonly string[]): Corpus {
  const files: string[] = [];
  for (const p of paths) {
    let st;
    try {
      st = statSync(p);
    } catch (e) {
      throw new ResembleError('E_IO', `cannot read ${p}: ${(e as Error).message}`, { path: p });
    }
    files.push(...(st.isDirectory() ? walk(p) : [p]));
  }
  if (files.length === 0) throw new ResembleError('E_INPUT', `no files in ${paths.join(', ')}`);
  return { name: paths.length === 1 ? paths[0] : `${paths.length} inputs`, ...read(files) };
}

function read(paths: string[]): { docs: Uint8Array[]; bytes: number } {
  const docs = paths.map((p) => {
    const b = readFileSync(p);
    return new Uint8Array(b.buffer, b.byteOffset, b.length);
  });
  return { docs, bytes: docs.reduce((a, d) => a + d.length, 0) };
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = statSync(p, { throwIfNoEntry: false });   // undefined for a dangling symbolic link: skipped
    if (st?.isDirectory()) out.push(...walk(p));
    else if (st) out.push(p);
  }
  return out;
}

/**
 * Takes a corpus and a size; returns one buffer of exactly `size` bytes: the documents in a fixed
 * shuffled order (seed 1, so runs compare), concatenated and repeated as needed.
 */
export function generatedBuffer(corpus: Corpus, size: number): Uint8Array {
  if (corpus.bytes === 0) throw new ResembleError('E_INPUT', `cannot make a ${size}-byte buffer from empty documents`);
  const order = new Random(1).shuffle(corpus.docs.map((_, i) => i));
  const out = new Uint8Array(size);
  let at = 0;
  for (let k = 0; at < size; k = (k + 1) % order.length) {
    const d = corpus.docs[order[k]];
    const n = Math.min(d.length, size - at);
    out.set(d.subarray(0, n), at);
    at += n;
  }
  return out;
}

const UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, kb: 1024, kib: 1024, m: 1 << 20, mb: 1 << 20, mib: 1 << 20 };

/** Takes a size like "4KiB", "16MiB" or "65536"; returns bytes (1 KiB..1 GiB), or throws E_OPTION. */
export function parseSize(text: string, name = '--sizes'): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = m ? UNITS[m[2].toLowerCase()] : undefined;
  const bytes = m && unit ? Math.round(Number(m[1]) * unit) : NaN;
  if (!(bytes >= 1024 && bytes <= 1 << 30)) throw optionError(name, 'sizes 1KiB..1024MiB such as 4KiB or 16MiB', text);
  return bytes;
}

/** Takes bytes; returns a short label ("4 KiB", "2.5 MiB"). */
export function sizeLabel(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1 << 20) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${+(bytes / (1 << 20)).toFixed(1)} MiB`;
}
