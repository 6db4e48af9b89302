/**
 * A built crawl archived as a deduplicating crawler (Heritrix, pywb, Browsertrix) archives it: the
 * pages of its crawl.warc.gz in order, each page whose bytes were stored before written as a
 * `revisit` record naming the first. The folder gets that WARC and links to the crawl's folder and
 * truth, so `evaluate.ts --data OUT --input warc` scores the crawl read through revisits. With
 * `--arc`, the same pages as an ARC file instead (`crawl.arc.gz`, the format before WARC; scored
 * with `--input arc`), default out DATA-arc.
 *
 *   node --import tsx bench/realistic/dedup.ts [--data DIR] [--out DIR] [--arc]
 *
 * --data is a built crawl (default $RESEMBLE_DATA/realistic); --out defaults to DATA-dedup.
 */
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readWarc } from '../../src/io/warc.js';
import { writeArc, writeWarc } from './output.js';

const { values } = parseArgs({ options: { data: { type: 'string' }, out: { type: 'string' }, arc: { type: 'boolean' } } });
const base = process.env.RESEMBLE_DATA;
const data = resolve(values.data ?? (base ? join(base, 'realistic') : ''));
if (!existsSync(join(data, 'crawl.warc.gz'))) throw new Error(`no crawl.warc.gz in ${data}: build the crawl first (build.ts), or give --data`);
const out = resolve(values.out ?? `${data}-${values.arc ? 'arc' : 'dedup'}`);
mkdirSync(out, { recursive: true });
const pages: { url: string; bytes: Uint8Array }[] = [];
for await (const d of readWarc(join(data, 'crawl.warc.gz'), { links: false, onError: (e) => { throw new Error(`${e.location}: ${e.message}`); } })) pages.push({ url: d.url, bytes: d.bytes });
if (values.arc) writeArc(join(out, 'crawl.arc.gz'), pages);
else writeWarc(join(out, 'crawl.warc.gz'), pages, { dedup: true });
for (const name of ['crawl', 'truth']) {
  rmSync(join(out, name), { force: true, recursive: false });
  symlinkSync(join(data, name), join(out, name));
}
const distinct = new Set(pages.map((p) => Buffer.from(p.bytes).toString('base64'))).size;
console.log(values.arc ? `${out}: ${pages.length} pages as ARC records` : `${out}: ${pages.length} pages, ${distinct} stored as responses, ${pages.length - distinct} as revisits`);
