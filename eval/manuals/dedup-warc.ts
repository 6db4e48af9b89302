/**
 * A built crawl archived as a deduplicating crawler (Heritrix, pywb, Browsertrix) archives it: the
 * pages of its crawl.warc.gz in order, each page whose bytes were stored before written as a
 * `revisit` record naming the first. The folder gets that WARC and links to the crawl's folder and
 * truth, so `evaluate.ts --data OUT --input warc` scores the crawl read through revisits. With
 * `--arc`, the same pages as an ARC file instead (`crawl.arc.gz`, the format before WARC; scored
 * with `--input arc`), default out DATA-arc. With `--wacz`, the deduplicated WARC split in two
 * WARC files (revisits then name records of the other file too) inside a WACZ package as
 * Browsertrix writes it (`crawl.wacz`, scored with `--input wacz`), default out DATA-wacz.
 *
 *   node --import tsx eval/manuals/dedup-warc.ts [--data DIR] [--out DIR] [--arc | --wacz]
 *
 * --data is a built crawl (default $RESEMBLE_DATA/realistic); --out defaults to DATA-dedup.
 */
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readWarc } from '../../src/io/warc.js';
import { readFileSync, unlinkSync } from 'node:fs';
import { writeArc, writeWarc, writeZipStored } from './output.js';

const { values } = parseArgs({ options: { data: { type: 'string' }, out: { type: 'string' }, arc: { type: 'boolean' }, wacz: { type: 'boolean' } } });
const base = process.env.RESEMBLE_DATA;
const data = resolve(values.data ?? (base ? join(base, 'realistic') : ''));
if (!existsSync(join(data, 'crawl.warc.gz'))) throw new Error(`no crawl.warc.gz in ${data}: build the crawl first (build.ts), or give --data`);
const out = resolve(values.out ?? `${data}-${values.arc ? 'arc' : values.wacz ? 'wacz' : 'dedup'}`);
mkdirSync(out, { recursive: true });
const pages: { url: string; bytes: Uint8Array }[] = [];
for await (const d of readWarc(join(data, 'crawl.warc.gz'), { links: false, onError: (e) => { throw new Error(`${e.location}: ${e.message}`); } })) pages.push({ url: d.url, bytes: d.bytes });
if (values.arc) writeArc(join(out, 'crawl.arc.gz'), pages);
else if (values.wacz) {
  // two WARC files of one deduplicating crawl: the second's revisits name records of the first as well
  const half = pages.length >> 1;
  const parts = [join(out, 'rec-1.warc.gz'), join(out, 'rec-2.warc.gz')];
  writeWarcPair(parts, pages, half);
  const pagesJsonl = pages.map((p) => JSON.stringify({ url: p.url, ts: '2024-01-01T00:00:00Z' })).join('\n') + '\n';
  writeZipStored(join(out, 'crawl.wacz'), [
    { name: 'archive/rec-1.warc.gz', bytes: readFileSync(parts[0]) },
    { name: 'archive/rec-2.warc.gz', bytes: readFileSync(parts[1]) },
    { name: 'pages/pages.jsonl', bytes: new TextEncoder().encode('{"format": "json-pages-1.0", "id": "pages", "title": "All Pages"}\n' + pagesJsonl) },
    { name: 'datapackage.json', bytes: new TextEncoder().encode(JSON.stringify({ profile: 'data-package', wacz_version: '1.1.1', resources: [] })) },
  ]);
  for (const p of parts) unlinkSync(p);
} else writeWarc(join(out, 'crawl.warc.gz'), pages, { dedup: true });

/** The deduplicated WARC cut after `half` pages into two files (the first page of the second half may be a revisit of the first file). */
function writeWarcPair(files: string[], all: { url: string; bytes: Uint8Array }[], half: number): void {
  writeWarc(files[0], all.slice(0, half), { dedup: true });
  // the second file's revisits may name pages of the first: the dedup writer sees the first half, then writes only the second
  writeWarc(files[1], all, { dedup: true, from: half });
}
for (const name of ['crawl', 'truth']) {
  rmSync(join(out, name), { force: true, recursive: false });
  symlinkSync(join(data, name), join(out, name));
}
const distinct = new Set(pages.map((p) => Buffer.from(p.bytes).toString('base64'))).size;
console.log(values.arc ? `${out}: ${pages.length} pages as ARC records` : values.wacz ? `${out}: ${pages.length} pages in two deduplicated WARC files inside crawl.wacz` : `${out}: ${pages.length} pages, ${distinct} stored as responses, ${pages.length - distinct} as revisits`);
