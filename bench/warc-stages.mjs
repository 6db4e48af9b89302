// The stages of reading a .warc.gz, each as a process of its own, for timing side by side with
// `zcat FILE > /dev/null` and `resemble sketch FILE > /dev/null` (docs/benchmarks.md, "Reading a
// .warc.gz"). Runs the built package (dist/), as bench/dist-cli.mjs does.
//
//   node bench/warc-stages.mjs gunzip FILE    Node's zlib.gunzipSync over the whole file
//   node bench/warc-stages.mjs members FILE   zlib.inflateRawSync member by member, each checked
//                                             against its CRC-32 (what the reader's inflater does)
//   node bench/warc-stages.mjs read FILE      readCrawl: every page as a Document (links not parsed, as
//                                             `resemble sketch` reads), nothing sketched
//   node bench/warc-stages.mjs records FILE   sketchCrawl, the library's streaming entry point: every
//                                             page's sketch record handed to onRecord (what `resemble
//                                             sketch` prints, made and dropped)
//   node bench/warc-stages.mjs pool FILE      the pages read first, then sketchMany on a pool of 2
//                                             workers (createPool), in batches of 4 MiB as the
//                                             streaming pipeline sends them
//
// Each prints what it did (members, bytes, pages) on one line.
import { readFileSync } from 'node:fs';
import * as zlib from 'node:zlib';

const [stage, file] = process.argv.slice(2);
if (!stage || !file) throw new Error('usage: node bench/warc-stages.mjs gunzip|members|read FILE');

if (stage === 'gunzip') {
  process.stdout.write(`gunzip: ${zlib.gunzipSync(readFileSync(file)).length} bytes inflated\n`);
} else if (stage === 'members') {
  const f = readFileSync(file);
  let at = 0, members = 0, bytes = 0;
  while (at < f.length) {
    const flags = f[at + 3];
    let head = 10;
    if (flags & 4) head += 2 + (f[at + 10] | (f[at + 11] << 8));
    for (const flag of [8, 16]) if (flags & flag) { while (f[at + head] !== 0) head++; head++; }
    if (flags & 2) head += 2;
    const r = zlib.inflateRawSync(f.subarray(at + head, at + head + (1 << 20)), { info: true, maxOutputLength: 4 << 20 });
    const end = at + head + r.engine.bytesWritten;
    if (zlib.crc32(r.buffer) !== f.readUInt32LE(end)) throw new Error(`member at ${at}: CRC-32 mismatch`);
    bytes += r.buffer.length;
    members++;
    at = end + 8;
  }
  process.stdout.write(`members: ${members} members, ${bytes} bytes inflated\n`);
} else if (stage === 'read') {
  const { readCrawl } = await import(new URL('../dist/node.js', import.meta.url).href);
  let pages = 0, bytes = 0;
  // links: false, as sketchCrawl reads (a page's links are parsed only for the commands that use them)
  for await (const d of readCrawl(file, { links: false, onError() {}, onSkip() {}, onWarning() {} })) {
    pages++;
    bytes += d.bytes.length;
  }
  process.stdout.write(`read: ${pages} pages, ${bytes} bytes\n`);
} else if (stage === 'records') {
  const { init, sketchCrawl } = await import(new URL('../dist/node.js', import.meta.url).href);
  await init();
  let records = 0, values = 0;
  await sketchCrawl(file, { onRecord(r) { records++; values += r.values.length; }, onError() {}, onWarning() {}, read: { onSkip() {} } });
  process.stdout.write(`records: ${records} records, ${values} values\n`);
} else if (stage === 'pool') {
  const { init, readCrawl, createPool } = await import(new URL('../dist/node.js', import.meta.url).href);
  await init();
  const pages = [];
  for await (const d of readCrawl(file, { links: false, onError() {}, onSkip() {}, onWarning() {} })) pages.push(d.utf8 ?? d.bytes);
  const pool = createPool({ workers: 2 });
  let sketched = 0;
  try {
    // batches of 4 MiB of pages, as sketchCrawl cuts them, several in flight
    const calls = [];
    for (let i = 0; i < pages.length;) {
      let j = i, bytes = 0;
      while (j < pages.length && bytes < 4 << 20) bytes += pages[j++].length;
      calls.push(pool.sketchMany(pages.slice(i, j), { batchBytes: 8 << 20 }).then((set) => { sketched += set.size; }));
      i = j;
    }
    await Promise.all(calls);
  } finally {
    await pool.close();
  }
  process.stdout.write(`pool: ${sketched} pages sketched\n`);
} else throw new Error(`unknown stage ${stage}: gunzip, members, read, records or pool`);
