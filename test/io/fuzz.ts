/**
 * Seeded mutation fuzzing of the readers: inputs built from the sample's pages (as WARC records,
 * JSONL lines or URL lines, plain or gzip: one member per record, or one stream), mutated by bit
 * flips, truncations, splices, duplicated header lines and huge lengths. Each case checks that no
 * exception escapes, that every record wholly before the damage comes out byte for byte, and that
 * memory stays bounded.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { constants, gzipSync, inflateRawSync } from 'node:zlib';
import * as assert from 'uvu/assert';
import type { Document, ReadError } from '../../src/graph/document.js';
import { readCrawl } from '../../src/io/crawl.js';
import { gzipHeaderLength } from '../../src/io/gunzip.js';
import { rng } from '../helpers/random.js';
import { concat } from './fixtures.js';

const enc = new TextEncoder();
const SAMPLE = new URL('../../sample/', import.meta.url).pathname;

/** The sample's HTML pages, smallest first: `count` of them as [url, html]. */
export function samplePages(count: number): Array<[string, string]> {
  const out: Array<[string, string, number]> = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.html')) out.push([`http://${relative(SAMPLE, p)}`, readFileSync(p, 'utf8'), statSync(p).size]);
    }
  };
  walk(SAMPLE);
  // small and varied: every k-th page by size, so a case reads fast
  out.sort((a, b) => a[2] - b[2] || (a[0] < b[0] ? -1 : 1));
  const step = Math.max(1, Math.floor(out.length / 2 / count));
  return out.filter((_, i) => i % step === 0).slice(0, count).map(([u, h]) => [u, h]);
}

/** An input as records: each record's bytes and what the reader must give for it (url and page bytes). */
export interface Corpus {
  records: Uint8Array[];
  /** The page each record holds: its URL and its bytes as the reader returns them. */
  pages: Array<{ url: string; bytes: Uint8Array }>;
  /** File name suffix: `.warc`, `.jsonl`, `.txt`. */
  ext: string;
  /** Offsets inside a record where a header line starts (WARC), for duplicated headers and huge lengths. */
  headerAt?: (record: Uint8Array) => { line: [number, number]; length?: [number, number] } | undefined;
}

/** How the records are laid out on disk. */
export type Layout = 'plain' | 'members' | 'stream';

/** A file of the corpus in a layout: its bytes, and per record the offset its damage must be past for the record to be promised. */
export interface Built {
  bytes: Uint8Array;
  /** For each record, the file offset through which its bytes are needed (exclusive end): damage at or after it keeps the record. */
  needs: number[];
  layout: Layout;
}

/** Lays the records out: plain, one gzip member per record, or one gzip stream. */
export function build(corpus: Corpus, layout: Layout): Built {
  const { records } = corpus;
  if (layout === 'plain') {
    const needs: number[] = [];
    let at = 0;
    for (const r of records) needs.push((at += r.length));
    return { bytes: concat(records), needs, layout };
  }
  if (layout === 'members') {
    const members = records.map((r) => new Uint8Array(gzipSync(r)));
    const needs: number[] = [];
    let at = 0;
    for (const m of members) needs.push((at += m.length));
    return { bytes: concat(members), needs, layout };
  }
  // one stream: a record is promised when the damage comes after the compressed bytes that inflate through its end
  const bytes = new Uint8Array(gzipSync(concat(records), { level: 6 }));
  return { bytes, needs: [], layout };
}

/** The inflated bytes a damaged single stream gives for sure: what its deflate data inflates to before the first changed byte. */
function intactPrefix(original: Uint8Array, damagedAt: number): number {
  const h = gzipHeaderLength(original);
  if (damagedAt <= h) return 0;
  try {
    return inflateRawSync(original.subarray(h, Math.min(original.length - 8, damagedAt)), { finishFlush: constants.Z_SYNC_FLUSH }).length;
  } catch {
    return 0;
  }
}

/** One mutation: the new bytes and the first offset they differ from the original at (its damage). */
export interface Mutation {
  kind: string;
  bytes: Uint8Array;
  at: number;
}

/** Takes an original (plain records' bytes or a built file) and a random source; returns a seeded mutation of it. */
export function mutate(built: Built, corpus: Corpus, r: () => number): Mutation {
  const b = built.bytes;
  const pick = (n: number) => Math.floor(r() * n);
  const kinds = ['flip', 'flips', 'truncate', 'splice', 'zero-run', 'insert-junk'];
  if (built.layout === 'plain' && corpus.headerAt) kinds.push('duplicate-header', 'huge-length', 'duplicate-header', 'huge-length');
  const kind = kinds[pick(kinds.length)];
  switch (kind) {
    case 'flip': {
      const bad = b.slice(), at = pick(b.length);
      bad[at] ^= 1 << pick(8);
      return { kind, bytes: bad, at };
    }
    case 'flips': {
      const bad = b.slice();
      let at = b.length;
      for (let i = 0, n = 1 + pick(8); i < n; i++) { const s = pick(b.length); bad[s] ^= 1 + pick(255); at = Math.min(at, s); }
      return { kind, bytes: bad, at };
    }
    case 'truncate': {
      const at = pick(b.length);
      return { kind, bytes: b.slice(0, at), at };
    }
    case 'splice': {
      // a stretch of the file copied over another place (a torn write, a resumed download)
      const from = pick(b.length), len = 1 + pick(Math.min(4096, b.length - from)), at = pick(b.length);
      return { kind, bytes: concat([b.subarray(0, at), b.subarray(from, from + len), b.subarray(at)]), at };
    }
    case 'zero-run': {
      const bad = b.slice(), at = pick(b.length);
      bad.fill(r() < 0.5 ? 0 : 0xff, at, at + 1 + pick(64));
      return { kind, bytes: bad, at };
    }
    case 'insert-junk': {
      const at = pick(b.length);
      const junk = Uint8Array.from({ length: 1 + pick(300) }, () => pick(256));
      return { kind, bytes: concat([b.subarray(0, at), junk, b.subarray(at)]), at };
    }
    case 'duplicate-header':
    case 'huge-length': {
      const i = pick(corpus.records.length);
      const rec = corpus.records[i];
      const where = corpus.headerAt!(rec);
      const start = built.needs[i] - rec.length;
      if (!where || (kind === 'huge-length' && !where.length)) {
        const bad = b.slice(), at = pick(b.length);
        bad[at] ^= 0x20;
        return { kind: 'flip', bytes: bad, at };
      }
      let changed: Uint8Array;
      if (kind === 'duplicate-header') {
        const [s, e] = where.line;
        const dup = r() < 0.5 ? rec.subarray(s, e) : enc.encode(`Content-Length: ${pick(1 << 20)}\r\n`);
        changed = concat([rec.subarray(0, e), dup, rec.subarray(e)]);
      } else {
        const [s, e] = where.length!;
        const huge = ['99999999999999999999', String(2 ** 53), '4294967296', '-1', '1e9', String(1 << 30)][pick(6)];
        changed = concat([rec.subarray(0, s), enc.encode(huge), rec.subarray(e)]);
      }
      return { kind, bytes: concat([b.subarray(0, start), changed, b.subarray(start + rec.length)]), at: start };
    }
  }
  throw new Error(kind);
}

/** Reads one file with readCrawl; returns the documents and errors. An exception escaping fails the case. */
export async function readAll(path: string, maxRecordBytes: number): Promise<{ docs: Document[]; errors: ReadError[] }> {
  const docs: Document[] = [], errors: ReadError[] = [];
  for await (const d of readCrawl(path, { onError: (e) => errors.push(e), maxRecordBytes })) docs.push(d);
  return { docs, errors };
}

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.length).equals(b);

/**
 * Runs `cases` seeded mutations of the corpus in each layout through readCrawl; checks that nothing
 * throws, that every record wholly before the damage comes out with its bytes, and that the heap
 * stays within `heapBound` bytes of where it started. Returns how many cases ran and records were checked.
 */
export async function fuzzReader(corpus: Corpus, dir: string, options: { cases: number; seed: number; layouts: Layout[]; heapBound?: number; maxRecordBytes?: number }): Promise<{ cases: number; promised: number; damaged: number }> {
  const r = rng(options.seed);
  const maxRecordBytes = options.maxRecordBytes ?? 1 << 20;
  const heapBound = options.heapBound ?? 256 << 20;
  const start = process.memoryUsage().heapUsed;
  let promised = 0, damaged = 0, cases = 0;
  for (const layout of options.layouts) {
    const built = build(corpus, layout);
    const ext = corpus.ext + (layout === 'plain' ? '' : '.gz');
    const clean = join(dir, `clean-${layout}${ext}`);
    writeFileSync(clean, built.bytes);
    const whole = await readAll(clean, maxRecordBytes);
    assert.equal(whole.errors, [], `${layout}: the unmutated file reads clean`);
    assert.equal(whole.docs.map((d) => d.url), corpus.pages.map((p) => p.url), `${layout}: every page`);
    // a single stream: the inflated end of each record
    const ends: number[] = [];
    if (layout === 'stream') { let at = 0; for (const rec of corpus.records) ends.push((at += rec.length)); }
    for (let c = 0; c < options.cases; c++, cases++) {
      const m = mutate(built, corpus, r);
      const path = join(dir, `case${ext}`);
      writeFileSync(path, m.bytes);
      let got: Awaited<ReturnType<typeof readAll>>;
      try {
        got = await readAll(path, maxRecordBytes);
      } catch (e) {
        throw new Error(`${layout} case ${c} (${m.kind} at ${m.at}): an exception escaped: ${(e as Error).stack}`);
      }
      if (got.errors.length > 0) damaged++;
      const intact = layout === 'stream' ? intactPrefix(built.bytes, m.at) : 0;
      corpus.pages.forEach((p, i) => {
        const kept = layout === 'stream' ? ends[i] <= intact : built.needs[i] <= m.at;
        if (!kept) return;
        promised++;
        const doc = got.docs.find((d) => d.url === p.url);
        assert.ok(doc, `${layout} case ${c} (${m.kind} at ${m.at}): record ${i} (${p.url}) ends before the damage and is lost; errors: ${got.errors.map((e) => e.message).join(' | ')}`);
        assert.ok(same(doc!.bytes, p.bytes), `${layout} case ${c} (${m.kind} at ${m.at}): record ${i} (${p.url}) has other bytes`);
      });
      if (c % 200 === 199) {
        const grown = process.memoryUsage().heapUsed - start;
        assert.ok(grown < heapBound, `${layout} case ${c}: heap grew by ${grown} bytes`);
      }
    }
  }
  return { cases, promised, damaged };
}
