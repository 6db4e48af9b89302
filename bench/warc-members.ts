/**
 * Writes a one-gzip-member-per-record `.warc.gz`, as Common Crawl and Heritrix write them, for
 * timing the WARC reader against `zcat` (docs/benchmarks.md, "Reading a .warc.gz").
 *
 *   node --import tsx bench/warc-members.ts [--crawl DIR] [--out FILE] [--min-mb N]
 *
 * The records are a crawl folder's WARC files (crawl.warc.gz, then sweep-1.warc.gz, sweep-2...,
 * as the crawl builders in eval/web write them: requests, responses, and revisits of the pages a
 * sweep fetched unchanged), in that order, each framed by its Content-Length and written as its
 * own gzip member (zlib level 6, as gzip and Heritrix write). When they inflate to less than
 * --min-mb MiB, the crawl is written again after them, its WARC-Record-IDs made new, until it is
 * reached. Defaults: --crawl $RESEMBLE_DATA/hosted-manuals, --out warc-members.warc.gz in the
 * system's temporary folder, --min-mb 100. It prints the records by WARC-Type and the sizes.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';

const { values: args } = parseArgs({ options: { crawl: { type: 'string' }, out: { type: 'string' }, 'min-mb': { type: 'string' } } });
const data = process.env.RESEMBLE_DATA;
if (!args.crawl && !data) throw new Error('set RESEMBLE_DATA, or pass --crawl');
const crawl = args.crawl ?? join(data!, 'hosted-manuals');
const out = args.out ?? join(tmpdir(), 'warc-members.warc.gz');
const minBytes = Number(args['min-mb'] ?? 100) * 2 ** 20;
if (!(minBytes > 0)) throw new Error(`--min-mb: expected a positive number, got ${args['min-mb']}`);

const files = ['crawl.warc.gz', ...readdirSync(crawl).filter((n) => /^sweep-\d+\.warc\.gz$/.test(n)).sort((a, b) => Number(a.match(/\d+/)![0]) - Number(b.match(/\d+/)![0]))]
  .map((n) => join(crawl, n)).filter((p) => existsSync(p));
if (files.length === 0) throw new Error(`${crawl}: no crawl.warc.gz there`);

const enc = new TextEncoder();
const dec = new TextDecoder();

/** Splits an inflated WARC into its records (header, block and the blank line after it). */
function records(warc: Uint8Array): Uint8Array[] {
  const found: Uint8Array[] = [];
  let at = 0;
  while (at < warc.length) {
    const headEnd = Buffer.from(warc.buffer, warc.byteOffset, warc.length).indexOf('\r\n\r\n', at);
    if (headEnd < 0) throw new Error(`a record at ${at} without the end of its header`);
    const head = dec.decode(warc.subarray(at, headEnd));
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1]);
    if (!Number.isInteger(length)) throw new Error(`a record at ${at} without Content-Length`);
    const end = headEnd + 4 + length + 4;
    found.push(warc.subarray(at, end));
    at = end;
  }
  return found;
}

const all = files.flatMap((f) => records(gunzipSync(readFileSync(f))));
const fd = openSync(out, 'w');
const types = new Map<string, number>();
let inflated = 0, stored = 0, round = 0;
while (inflated < minBytes) {
  for (const record of all) {
    let bytes = record;
    if (round > 0) {
      // the same crawl again: record ids made new (a hash of the old one and the round), so every id stays unique
      const text = dec.decode(record).replace(/<urn:uuid:([0-9a-f-]{36})>/g, (_m, id: string) => {
        const h = createHash('sha1').update(`${round}:${id}`).digest('hex');
        return `<urn:uuid:${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}>`;
      });
      bytes = enc.encode(text);
      if (bytes.length !== record.length) throw new Error('a record changed length when its ids were made new (not UTF-8?)');
    }
    const type = /\r\nWARC-Type:\s*(\S+)/i.exec(dec.decode(bytes.subarray(0, 2048)))?.[1] ?? '?';
    types.set(type, (types.get(type) ?? 0) + 1);
    const member = gzipSync(bytes, { level: 6 });
    writeSync(fd, member);
    inflated += bytes.length;
    stored += member.length;
  }
  round++;
}
closeSync(fd);
const count = [...types.values()].reduce((a, b) => a + b, 0);
process.stdout.write(`${out}: ${count} records, one gzip member each (${[...types].map(([t, n]) => `${n} ${t}`).join(', ')}); ` +
  `${(stored / 2 ** 20).toFixed(1)} MiB stored, ${(inflated / 2 ** 20).toFixed(1)} MiB inflated; ${round} pass${round > 1 ? 'es' : ''} over ${files.length} files\n`);
