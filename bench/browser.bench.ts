/**
 * The browser bundle's sketch speed beside Node's, on the same pages in the same run:
 *
 *   node --import tsx bench/browser.bench.ts [--corpus DIR] [--rounds N]
 *
 * Serves dist/ on 127.0.0.1, opens it in headless Chromium (Debian's /usr/bin/chromium, or
 * $RESEMBLE_CHROMIUM), and times `sketchMany(pages)` of dist/browser.js there and of the package
 * in this Node process, round by round in turn (wall-clock: a page has no CPU clock), after both
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
import { init, serializeSketchSet, sketchMany } from '../src/index.js';
// @ts-expect-error: a plain ES module without types
import { startServer } from '../web/serve.mjs';

const { values: args } = parseArgs({ options: { corpus: { type: 'string' }, rounds: { type: 'string' } } });
const corpus = args.corpus ? loadSample(args.corpus, 'HTML pages') : loadSample();
const rounds = Number(args.rounds ?? 5);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds: expected a positive integer, got ${args.rounds}`);
const offsets = [0];
for (const d of corpus.docs) offsets.push(offsets[offsets.length - 1] + d.length);
const blob = Buffer.concat(corpus.docs);

await init();
const want = createHash('sha256').update(serializeSketchSet(sketchMany(corpus.docs))).digest('hex');
const server = await startServer(0) as { url: string; close(): Promise<void> };
const profile = mkdtempSync(join(tmpdir(), 'resemble-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.RESEMBLE_CHROMIUM ?? '/usr/bin/chromium', headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
});
try {
  const page = context.pages()[0] ?? await context.newPage();
  await page.route('**/bench-pages.bin', (route) => route.fulfill({ body: blob, contentType: 'application/octet-stream' }));
  await page.goto(`${server.url}dist/`);   // any page of the server: the bundle is imported from its origin
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
  const node: number[] = [], browser: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t = performance.now();
    sketchMany(corpus.docs);
    node.push(performance.now() - t);
    browser.push(await page.evaluate('(() => { const t0 = performance.now(); globalThis.benchRun(); return performance.now() - t0; })()') as number);
  }
  const mb = (ms: number) => (corpus.bytes / 1e3 / ms).toFixed(0);
  const docs = (ms: number) => Math.round(corpus.docs.length / ms * 1e3).toLocaleString('en-US');
  const version = ((await page.evaluate('navigator.userAgent')) as string).match(/Chrome\/([\d.]+)/)?.[1];
  process.stdout.write(`browser bench · ${machineLine(machine())}\n${corpus.name}, ${corpus.docs.length} pages, ${(corpus.bytes / 2 ** 20).toFixed(1)} MiB; median of ${rounds} rounds, wall-clock, interleaved\n`);
  process.stdout.write(`  Node ${process.version} sketchMany:        ${mb(median(node))} MB/s, ${docs(median(node))} docs/s\n`);
  process.stdout.write(`  Chromium ${version} dist/browser.js sketchMany: ${mb(median(browser))} MB/s, ${docs(median(browser))} docs/s (${(median(node) / median(browser)).toFixed(2)}× Node)\n`);
} finally {
  await context.close();
  await server.close();
  rmSync(profile, { recursive: true, force: true });
}
