// The demo page in real Chromium (Debian's /usr/bin/chromium, driven by playwright-core; no
// browser is ever downloaded): a folder is read as the Node reader reads it, the sketch bytes and
// clusters equal Node's, an invalid file is reported while the rest loads, the library works in a
// module Web Worker and under a strict Content-Security-Policy, and the benchmark runs. Without
// Chromium the suite fails (the browser build is not tested otherwise); RESEMBLE_SKIP_BROWSER=1
// skips it instead on a machine of one's own, never under CI=true (docs/testing.md).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { BrowserContext, Page } from 'playwright-core';
import { utf8Bytes } from '../../src/graph/document.js';
import { makeDocument } from '../../src/io/make-document.js';
import { contentTypeFromName, isBinaryType } from '../../src/io/sniff.js';
import { fileBytes } from '../../src/io/file-bytes.js';
import iconv from 'iconv-lite';
import { CASES, page as legacyPage, TEXTS } from '../io/legacy-texts.js';
import { init, sketchMany } from '../../src/browser.js';
import { nearDuplicates, serializeSketchSet } from '../../src/advanced-browser.js';
import { ensureDist, root } from '../bundle/dist.js';

// The demo's own modules are plain JavaScript (no declarations): loaded untyped.
const web = (file: string) => import(pathToFileURL(join(root, 'web', file)).href);
const { clusterRecords } = await web('clusters.js') as { clusterRecords(c: unknown, names: string[]): unknown[] };
const { exampleDocuments } = await web('example.js') as { exampleDocuments(): { name: string; text: string }[] };
const { startServer } = await web('serve.mjs') as { startServer(port: number): Promise<{ url: string; close(): Promise<void> }> };

// Debian's package; RESEMBLE_CHROMIUM points elsewhere.
const CHROMIUM = process.env.RESEMBLE_CHROMIUM ?? '/usr/bin/chromium';
// The local opt-out: honoured only outside CI.
const SKIP = process.env.RESEMBLE_SKIP_BROWSER === '1' && process.env.CI !== 'true';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];
// The page's default options, spelled out: the Node side must sketch with exactly these.
const OPTIONS = { w: 8, kind: 'min', markup: 'html', s: 128 } as const;
const THRESHOLD = 0.5;
const WAIT = { timeout: 30_000 };

/** The sample crawl as the Node folder reader sees it: paths in walk order, documents' bytes, skipped binaries. */
function nodeReading(dir: string, prefix: string) {
  const docs: { name: string; bytes: Uint8Array }[] = [];
  const skipped: string[] = [];
  const walk = (abs: string, rel: string) => {
    for (const name of readdirSync(abs).sort()) {
      const path = join(abs, name), relPath = `${rel}/${name}`;
      if (statSync(path).isDirectory()) { walk(path, relPath); continue; }
      const mime = contentTypeFromName(name.split('?')[0]);
      const bytes = new Uint8Array(readFileSync(path));
      const doc = mime !== undefined && isBinaryType(mime) ? undefined : makeDocument({ url: 'http://sample.test/', bytes, mime, source: path }, false);
      if (doc) docs.push({ name: relPath, bytes: utf8Bytes(doc) });
      else skipped.push(relPath);
    }
  };
  walk(dir, prefix);
  return { docs, skipped };
}

const runs = (page: Page) => page.evaluate(() => Number(document.getElementById('status')!.dataset.runs ?? 0));

/** Runs an action on the page and waits until the page has finished the work it started. */
async function act(page: Page, action: () => Promise<unknown>): Promise<string> {
  const before = await runs(page);
  await action();
  await page.waitForFunction((b) => {
    const s = document.getElementById('status')!;
    return Number(s.dataset.runs ?? 0) > b && s.dataset.state !== 'working';
  }, before, WAIT);
  return page.evaluate(() => document.getElementById('status')!.dataset.state!);
}

const pageState = (page: Page) => page.evaluate(() => {
  const s = (window as any).resembleDemo.state;
  return { names: s.names as string[], records: s.records, errors: [...document.querySelectorAll('#errors li')].map((li) => li.textContent!) };
});

if (!existsSync(CHROMIUM) && SKIP) {
  console.log(`skipped (RESEMBLE_SKIP_BROWSER=1): chromium not installed (${CHROMIUM} is missing; apt-get install -y chromium)`);
  test.skip('browser tests in Chromium', () => {});
} else if (!existsSync(CHROMIUM)) {
  test('Chromium is installed (the browser build is tested in it)', () => {
    assert.unreachable(`no Chromium at ${CHROMIUM}: apt-get install -y chromium, or point RESEMBLE_CHROMIUM at one (RESEMBLE_SKIP_BROWSER=1 skips this suite outside CI)`);
  });
} else {
  let context: BrowserContext;
  let page: Page;
  let server: { url: string; close(): Promise<void> };
  let profile: string;
  const problems: string[] = [];
  const sample = nodeReading(join(root, 'sample'), 'sample');
  let nodeBytes: Uint8Array;
  let nodeRecords: unknown[];
  let startFailure: string | undefined;

  test.before(async () => {
    console.log(ensureDist('browser'));
    const { chromium } = await import('playwright-core');
    await init();
    const set = sketchMany(sample.docs.map((d) => d.bytes), OPTIONS);
    nodeBytes = serializeSketchSet(set);
    nodeRecords = clusterRecords(nearDuplicates(set, { threshold: THRESHOLD }).clusters, sample.docs.map((d) => d.name));
    server = await startServer(0);
    profile = mkdtempSync(join(tmpdir(), 'resemble-chromium-'));
    try {
      context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, acceptDownloads: true });
    } catch (e) {
      // uvu loses an error thrown here: the first test reports it
      startFailure = `Chromium at ${CHROMIUM} does not start: ${(e as Error).message}`;
      return;
    }
    page = context.pages()[0] ?? await context.newPage();
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  });

  test.after(async () => {
    await context?.close();
    await server?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  test('Chromium starts headless', () => {
    if (startFailure) assert.unreachable(startFailure);
  });

  test('the page loads and initializes the WebAssembly kernels', async () => {
    await page.goto(server.url);
    await page.waitForFunction(() => ['ready', 'error'].includes(document.getElementById('status')!.dataset.state ?? ''), null, WAIT);
    assert.is(await page.textContent('#status'), 'ready: add documents');
    assert.ok((await page.title()).includes('resemble'));
    assert.equal(problems, []);
  });

  test('a folder is read as the Node reader reads it; binaries are reported and skipped', async () => {
    assert.is(await act(page, () => page.setInputFiles('#folder', join(root, 'sample'))), 'done');
    const s = await pageState(page);
    assert.equal(s.names, sample.docs.map((d) => d.name), 'same documents in the same (walk) order');
    assert.ok(sample.skipped.length > 0, 'the sample has binary files to skip');
    assert.equal(s.errors.length, sample.skipped.length);
    for (const [i, path] of sample.skipped.entries()) {
      assert.match(s.errors[i], `${path}: binary file type`);
    }
    assert.match(await page.textContent('#summary') ?? '', `${sample.docs.length} documents`);
  });

  test('exported sketches are the bytes Node computes for the same inputs', async () => {
    const [download] = await Promise.all([page.waitForEvent('download', WAIT), page.click('#export')]);
    assert.is(download.suggestedFilename(), 'sketches.rsks');
    const got = readFileSync((await download.path())!);
    assert.is(got.length, nodeBytes.length);
    assert.ok(got.equals(Buffer.from(nodeBytes)), 'serializeSketchSet bytes equal');
  });

  test('clusters (members, evidence, estimates) equal Node\'s nearDuplicates', async () => {
    const s = await pageState(page);
    assert.ok(nodeRecords.length > 0, 'the sample has near-duplicates');
    assert.equal(s.records, nodeRecords);
    assert.is(await page.locator('#clusters details.cluster').count(), nodeRecords.length);
  });

  test('importing the Node sketch file (with names) shows the same clusters', async () => {
    const names = Buffer.from(JSON.stringify(sample.docs.map((d) => d.name)));
    assert.is(await act(page, () => page.setInputFiles('#import', [
      { name: 'node.rsks', mimeType: 'application/octet-stream', buffer: Buffer.from(nodeBytes) },
      { name: 'node.json', mimeType: 'application/json', buffer: names },
    ])), 'done');
    const s = await pageState(page);
    assert.equal(s.records, nodeRecords);
    assert.equal(s.errors, []);
  });

  test('an invalid file shows a clear error and the rest still loads', async () => {
    await page.click('#clear');
    const good = exampleDocuments().slice(0, 3);
    const enc = new TextEncoder();
    const files = [
      { name: 'a.html', mimeType: 'text/html', buffer: Buffer.from(enc.encode(good[0].text)) },
      { name: 'b-logo.png', mimeType: 'image/png', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]) },
      { name: 'c', mimeType: 'application/octet-stream', buffer: Buffer.from([0x41, 0x42, 0x00, 0x43, 0x44]) },
      { name: 'd.html', mimeType: 'text/html', buffer: Buffer.from(enc.encode(good[1].text)) },
      { name: 'e.txt', mimeType: 'text/plain', buffer: Buffer.from(enc.encode(good[2].text)) },
    ];
    assert.is(await act(page, () => page.setInputFiles('#files', files)), 'done');
    const s = await pageState(page);
    assert.equal(s.names, ['a.html', 'd.html', 'e.txt']);
    assert.equal(s.errors, ['b-logo.png: binary file type (.png), not HTML or text: skipped', 'c: binary content (a NUL byte at offset 2), not HTML or text: skipped']);
    await init();
    const [download] = await Promise.all([page.waitForEvent('download', WAIT), page.click('#export')]);
    const want = serializeSketchSet(sketchMany(good.map((d) => d.text), OPTIONS));
    assert.ok(readFileSync((await download.path())!).equals(Buffer.from(want)), 'the valid files were sketched');

    // A broken sketch file is refused with the library's message; the page keeps working.
    assert.is(await act(page, () => page.setInputFiles('#import', [{ name: 'broken.rsks', mimeType: 'application/octet-stream', buffer: Buffer.from('not sketches at all, just text '.repeat(4)) }])), 'error');
    const after = await pageState(page);
    assert.match(after.errors.at(-1)!, /^broken\.rsks: not a resemble sketch file \(bad magic number\) \[E_FORMAT\]$/);
    assert.equal(after.names, ['a.html', 'd.html', 'e.txt']);
    assert.equal(problems, []);
  });

  test('undeclared pages in legacy charsets are decoded in Chromium as in Node (sniffCharset over the browser\'s TextDecoder)', async () => {
    const inputs = CASES.map(([lang, charset]) => [...iconv.encode(legacyPage(TEXTS[lang]), charset)]);
    const node = inputs.map((b) => { const f = fileBytes('page.html', Uint8Array.from(b)); return 'skipped' in f ? f.skipped : { charset: f.charset, bytes: [...f.bytes] }; });
    assert.equal(node.map((n) => (typeof n === 'string' ? n : n.charset)), CASES.map((c) => c[2]), 'Node finds each charset');
    const got = await page.evaluate(`(() => {
      const r = window.resembleDemo.resemble;
      return ${JSON.stringify(inputs)}.map((b) => { const f = r.fileBytes('page.html', Uint8Array.from(b)); return 'skipped' in f ? f.skipped : { charset: f.charset, bytes: [...f.bytes] }; });
    })()`);
    assert.equal(got, node);
  });

  test('resemble runs in a module Web Worker: init() from the inline bytes (SIMD and scalar builds) and from a posted compiled module', async () => {
    const texts = exampleDocuments().map((d) => d.text);
    const want = [...serializeSketchSet(sketchMany(texts))];
    // A string, not a function: the test runner's transpiler would add helpers the page lacks.
    const got = await page.evaluate(`(async () => {
      const code = "import * as r from '${server.url}dist/advanced-browser.js';" +
        "onmessage = async (e) => { await r.init(e.data.module, e.data.options); postMessage({ build: r.kernelBuild(), bytes: [...r.serializeSketchSet(r.sketchMany(e.data.texts))] }); };";
      const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
      const texts = ${JSON.stringify(texts)};
      const module = window.resembleDemo.resemble.compiledModule();
      const out = [];
      for (const job of [{}, { module }, { options: { build: 'scalar' } }, { options: { build: 'simd' } }]) {
        out.push(await new Promise((ok, fail) => {
          const w = new Worker(url, { type: 'module' });
          w.onmessage = (e) => { ok(e.data); w.terminate(); };
          w.onerror = (e) => fail(new Error(e.message));
          w.postMessage({ texts, ...job });
        }));
      }
      return out;
    })()`) as { build: string; bytes: number[] }[];
    assert.equal(got.map((g) => g.build), ['simd', 'simd', 'scalar', 'simd'], 'Chromium runs SIMD: init() picks it; the option forces either');
    for (const [i, what] of ['init() in the worker', 'init(compiledModule) in the worker', "init({ build: 'scalar' })", "init({ build: 'simd' })"].entries()) {
      assert.equal(got[i].bytes, want, `${what}: the bytes Node computes`);
    }
  });

  test('under a strict CSP, web-resemble/advanced/browser-external fetches resemble.wasm and sketches on the page and in workers', async () => {
    const page2 = await context.newPage();
    const messages: string[] = [];
    page2.on('console', (m) => messages.push(m.text()));
    page2.on('pageerror', (e) => messages.push(e.message));
    const response = await page2.goto(`${server.url}csp.html`);
    assert.match(response!.headers()['content-security-policy'] ?? '', "script-src 'self' 'wasm-unsafe-eval'");
    await page2.waitForFunction(() => document.getElementById('status')!.dataset.state, null, WAIT);
    const result = await page2.evaluate(() => (window as any).resembleCsp);
    const want = [...serializeSketchSet(sketchMany(exampleDocuments().map((d) => d.text)))];
    assert.equal(result.main, want);
    assert.equal(result.worker, want);
    assert.equal(messages, [], 'no CSP violations or errors');
    await page2.close();
  });

  test('the throughput benchmark checks and times the main thread and Web Workers', async () => {
    await page.selectOption('#bench-size', '1');
    assert.is(await act(page, () => page.click('#run-bench')), 'done');
    const rows = await page.$$eval('#bench-results tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent!)));
    assert.ok(rows.length >= 2, 'main thread and at least one worker configuration');
    assert.is(rows[0][0], 'main thread');
    assert.is(rows[1][0], '1 Web Worker');
    for (const r of rows) {
      assert.ok(Number(r[1]) > 0 && Number(r[2]) > 0, `${r[0]}: positive MB/s`);
      console.log(`  bench (1 MB, Chromium): ${r[0].padEnd(14)} fingerprint ${r[1].padStart(7)} MB/s  sketch ${r[2].padStart(7)} MB/s`);
    }
    assert.equal(problems, []);
  });
}

test.run();
