// Peak memory on hostile inputs: a 1 GiB run of NULs in one gzip member of a .warc.gz (1 MB on
// disk), a JSONL with a 600 MiB hole (sparse file), a JSONL with a 400 MiB JSON string, and an
// uncompressed WARC with a 600 MiB hole between two records, and a .jsonl.gz with 256 Mi blank
// lines between good ones (256 KB on disk; blank lines go at the speed of a byte scan). Each case runs in a fresh process
// (so its peak RSS is its own): the readers alone (readCrawl) and the whole `resemble sketch`
// command, beside a baseline of the same process on a five-line file. The good records around
// the damage are checked to come out before anything is measured.
// Run: node --import tsx bench/hostile.bench.ts [--dir DIR] [--max-record MiB]
// (DIR: where the inputs are generated, default the OS temp folder; about 1.7 GB of sparse files
// that take some 420 MB of disk.)
import { spawnSync } from 'node:child_process';
import { closeSync, createWriteStream, existsSync, ftruncateSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGzip, gzipSync } from 'node:zlib';
import { machine } from '../src/bench/machine.js';
import { parseArgs } from 'node:util';

const MiB = 1 << 20;
// The parent takes --dir and --max-record; a child takes --child MODE PATH MAX_RECORD.
const { values: args, positionals } = parseArgs({ options: { child: { type: 'boolean', default: false }, dir: { type: 'string' }, 'max-record': { type: 'string' } }, allowPositionals: true });
const self = fileURLToPath(import.meta.url);
const bin = fileURLToPath(new URL('../bin/resemble.js', import.meta.url));

// ---- child: run one case, print {documents, errors, maxRss, seconds} as JSON on stdout
if (args.child) {
  const [mode, path, maxRecord] = positionals;
  const started = performance.now();
  let documents = 0, errors = 0;
  if (mode === 'reader') {
    const { readCrawl } = await import('../src/io/crawl.js');
    const options = { onError: () => errors++, ...(maxRecord ? { maxRecordBytes: Number(maxRecord) * MiB } : {}) };
    for await (const _ of readCrawl(path, options)) documents++;
  } else {
    const { main } = await import('../src/cli/main.js');
    let out = '', err = '';
    const args = ['sketch', path, ...(maxRecord ? ['--max-record', maxRecord] : [])];
    await main(args, { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c), isTTY: false } });
    documents = out.trim() === '' ? 0 : out.trim().split('\n').length;
    errors = (err.match(/\(E_[A-Z]+\)/g) ?? []).length;
  }
  const maxRss = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(JSON.stringify({ documents, errors, maxRss, seconds: (performance.now() - started) / 1000 }) + '\n');
  process.exit(0);
}

// ---- parent: generate the inputs once, run every case in a child
const dir = args.dir ?? join(tmpdir(), 'resemble-hostile-bench');
const maxRecord = args['max-record'];
mkdirSync(dir, { recursive: true });

const record = (url: string, body: string) => {
  const http = `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n${body}`;
  return `WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: ${url}\r\nContent-Length: ${Buffer.byteLength(http)}\r\n\r\n${http}\r\n\r\n`;
};
const page = (i: number) => `<p>page ${i} with words enough for a few shingles: one two three four five six seven eight</p>`;
const line = (i: number) => JSON.stringify({ url: `http://a.org/${i}`, text: `record ${i} with words one two three four five six seven eight nine` }) + '\n';

async function generate(): Promise<Record<string, string>> {
  const files = { baseline: join(dir, 'baseline.jsonl'), bomb: join(dir, 'bomb.warc.gz'), hole: join(dir, 'hole.jsonl'), string: join(dir, 'string.jsonl'), warcHole: join(dir, 'hole.warc'), blank: join(dir, 'blank.jsonl.gz') };
  if (!existsSync(files.baseline)) {
    const fd = openSync(files.baseline, 'w');
    for (let i = 0; i < 5; i++) writeSync(fd, line(i));
    closeSync(fd);
  }
  if (!existsSync(files.bomb)) {
    const n = 1 << 30;
    const head = `WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://a.org/bomb\r\nContent-Length: ${n + 44}\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n`;
    const out = createWriteStream(files.bomb);
    out.write(gzipSync(record('http://a.org/1', page(1))));
    const gz = createGzip({ level: 9 });
    gz.pipe(out, { end: false });
    gz.write(head);
    const zeros = Buffer.alloc(MiB);
    for (let i = 0; i < 1024; i++) if (!gz.write(zeros)) await new Promise<void>((r) => gz.once('drain', () => r()));
    gz.end('\r\n\r\n');
    await new Promise<void>((r) => gz.on('end', () => r()));
    out.end(gzipSync(record('http://a.org/2', page(2))));
    await new Promise<void>((r) => out.on('finish', () => r()));
  }
  const sparse = (path: string, before: string, after: string) => {
    const fd = openSync(path, 'w');
    writeSync(fd, before);
    ftruncateSync(fd, before.length + 600 * MiB);
    writeSync(fd, after, before.length + 600 * MiB);
    closeSync(fd);
  };
  if (!existsSync(files.hole)) sparse(files.hole, line(1), '\n' + line(2));
  if (!existsSync(files.warcHole)) sparse(files.warcHole, record('http://a.org/1', page(1)), record('http://a.org/2', page(2)));
  if (!existsSync(files.blank)) {
    const out = createWriteStream(files.blank);
    const gz = createGzip({ level: 9 });
    gz.pipe(out);
    gz.write(line(1));
    const blank = Buffer.alloc(MiB, 10);
    for (let i = 0; i < 256; i++) if (!gz.write(blank)) await new Promise<void>((r) => gz.once('drain', () => r()));
    gz.end(line(2));
    await new Promise<void>((r) => out.on('finish', () => r()));
  }
  if (!existsSync(files.string)) {
    const out = createWriteStream(files.string);
    out.write(line(1));
    out.write('{"url":"http://a.org/big","text":"');
    const chunk = 'x'.repeat(MiB);
    for (let i = 0; i < 400; i++) if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
    out.write('"}\n');
    out.end(line(2));
    await new Promise<void>((r) => out.on('finish', () => r()));
  }
  return files;
}

const m = machine();
console.log(`hostile inputs: peak RSS per case in a fresh process (Node ${process.version}, ${m.cores} cores, load ${m.load[0].toFixed(1)}); record cap ${maxRecord ?? 32} MiB`);
const files = await generate();
const expected: Record<string, [number, number]> = { baseline: [5, 0], bomb: [2, 1], hole: [2, 1], string: [2, 1], warcHole: [2, 1], blank: [2, 0] };
const rows: string[] = [];
const mb = (b: number) => `${(b / MiB).toFixed(0)} MiB`;
for (const mode of ['reader', 'cli']) {
  let base = 0;
  for (const [name, path] of Object.entries(files)) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', self, '--child', mode, path, maxRecord ?? ''], { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(`${mode} ${name} failed: ${r.stderr}`);
    const res = JSON.parse(r.stdout) as { documents: number; errors: number; maxRss: number; seconds: number };
    const [docs, errs] = expected[name];
    if (res.documents !== docs || res.errors !== errs) throw new Error(`${mode} ${name}: expected ${docs} documents and ${errs} errors, got ${res.documents} and ${res.errors}`);
    if (name === 'baseline') base = res.maxRss;
    rows.push(`${mode.padEnd(6)} ${name.padEnd(9)} peak RSS ${mb(res.maxRss).padStart(8)}  (+${mb(res.maxRss - base)} over the baseline)  ${res.seconds.toFixed(1)} s  ${res.documents} good records, ${res.errors} reported`);
    console.log(rows[rows.length - 1]);
  }
}
