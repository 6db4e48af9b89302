/**
 * The browser bundle's sketch speed beside Node's, on the same pages in the same run:
 *
 *   node --import tsx bench/browser.bench.ts [--corpus DIR] [--rounds N]
 *
 * Serves dist/ and the pages on 127.0.0.1, opens a page of it in headless Chromium (Debian's /usr/bin/chromium, or
 * $RESEMBLE_CHROMIUM), and times `sketchMany(pages)` of dist/browser.js there and of the package
 * in this Node process, round by round in turn, in CPU time (this process's; the page's main
 * thread's, from Chromium's ThreadTime metric), after both
 * gave the same sketches (SHA-256 of the serialized set). Needs `npm run build` first. Default
 * corpus: the bundled sample crawl.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { loadSample } from '../src/bench/corpus.js';
import { machine, machineLine } from '../src/bench/machine.js';
import { median } from '../src/bench/measure.js';
import { init, sketchMany } from '../src/index.js';
import { serializeSketchSet } from '../src/advanced.js';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const { values: args } = parseArgs({ options: { corpus: { type: 'string' }, rounds: { type: 'string' } } });
const corpus = args.corpus ? loadSample(args.corpus, 'HTML pages') : loadSample();
const rounds = Number(args.rounds ?? 5);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds: expected a positive integer, got ${args.rounds}`);
const offsets = [0];
for (const d of corpus.docs) offsets.push(offsets[offsets.length - 1] + d.length);
const blob = Buffer.concat(corpus.docs);

await init();
const want = createHash('sha256').update(serializeSketchSet(sketchMany(corpus.docs))).digest('hex');
// 127.0.0.1 only: dist/ at /dist/, the pages as one body at /bench-pages.bin
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const server = createServer(async (req, res) => {
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  if (path === '/bench-pages.bin') { res.writeHead(200, { 'content-type': 'application/octet-stream' }); res.end(blob); return; }
  const name = path.startsWith('/dist/') ? path.slice(6) : '';
  if (!/^[\w.-]+$/.test(name)) { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<!doctype html><title>bench</title>'); return; }
  try {
    const body = await readFile(join(dist, name));
    res.writeHead(200, { 'content-type': name.endsWith('.wasm') ? 'application/wasm' : 'text/javascript' });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
const profile = mkdtempSync(join(tmpdir(), 'resemble-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.RESEMBLE_CHROMIUM ?? '/usr/bin/chromium', headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
});
try {
  const page = context.pages()[0] ?? await context.newPage();
  await page.goto(url);   // a blank page of the server: the bundle is imported from its origin
  // The page's code goes as text: the TypeScript loader would otherwise put its helpers into the functions sent.
  const got = await page.evaluate(`(async (offsets) => {
    const m = await import('/dist/browser.js');
    await m.init();
    const bytes = new Uint8Array(await (await fetch('/bench-pages.bin')).arrayBuffer());
    const docs = offsets.slice(0, -1).map((a, i) => bytes.subarray(a, offsets[i + 1]));
    globalThis.benchRun = () => m.sketchMany(docs);
    const digest = await crypto.subtle.digest('SHA-256', m.serializeSketchSet(m.sketchMany(docs)));
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  })(${JSON.stringify(offsets)})`) as string;
  if (got !== want) throw new Error(`the browser bundle's sketches differ from Node's (${got} ≠ ${want})`);
  // CPU time: this process's, and the page's main thread's (Chromium's ThreadTime metric), so a busy machine's waiting is not counted
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const threadTime = async () => ((await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime')?.value ?? NaN) * 1000;
  const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
  const node: number[] = [], browser: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t = cpu();
    sketchMany(corpus.docs);
    node.push(cpu() - t);
    const b = await threadTime();
    await page.evaluate('globalThis.benchRun(), 0');
    browser.push(await threadTime() - b);
  }
  const mb = (ms: number) => (corpus.bytes / 1e3 / ms).toFixed(0);
  const docs = (ms: number) => Math.round(corpus.docs.length / ms * 1e3).toLocaleString('en-US');
  const version = ((await page.evaluate('navigator.userAgent')) as string).match(/Chrome\/([\d.]+)/)?.[1];
  process.stdout.write(`browser bench · ${machineLine(machine())}\n${corpus.name}, ${corpus.docs.length} pages, ${(corpus.bytes / 2 ** 20).toFixed(1)} MiB; median of ${rounds} rounds, interleaved; CPU time (Node: the process; Chromium: the page's main thread)\n`);
  process.stdout.write(`  Node ${process.version} sketchMany:        ${mb(median(node))} MB/s, ${docs(median(node))} docs/s\n`);
  process.stdout.write(`  Chromium ${version} dist/browser.js sketchMany: ${mb(median(browser))} MB/s, ${docs(median(browser))} docs/s (${(median(node) / median(browser)).toFixed(2)}× Node)\n`);
} finally {
  await context.close();
  await new Promise((ok) => server.close(ok));
  rmSync(profile, { recursive: true, force: true });
}
