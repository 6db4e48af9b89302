// The entry points in real Chromium (as test/browser/demo.test.ts drives it): each of the seven,
// given in the browser the pages of a slice of the sample crawl (and, for the near-duplicates, the
// same pages as `File`s of a folder), resolves to the records Node's entry point gives for the same
// pages, byte for byte, on one worker and on several; the summary's counts agree too.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { BrowserContext, Page } from 'playwright-core';
import { readCrawl } from '../../src/io/crawl.js';
import { mirrorPathToUrl } from '../../src/io/folder.js';
import * as node from '../../src/node.js';
import { ensureDist, root } from '../bundle/dist.js';

const { startServer } = await import(pathToFileURL(join(root, 'web', 'serve.mjs')).href) as { startServer(port: number): Promise<{ url: string; close(): Promise<void> }> };

const CHROMIUM = process.env.RESEMBLE_CHROMIUM ?? '/usr/bin/chromium';
const SKIP = process.env.RESEMBLE_SKIP_BROWSER === '1' && process.env.CI !== 'true';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];
const TIMEOUT = 240_000;
// Hosts of the sample whose pages make the slice: near-duplicates, replicated collections and a mirror.
const HOSTS = ['docs.example.com', 'sqlite-mirror.example.net', 'notes.example.com', 'blog.example.com'];

type Name = 'findNearDuplicates' | 'dedup' | 'sketchCrawl' | 'findCollections' | 'findMirrors' | 'studyDuplicates' | 'findSignatureCollisions';
// Small batches, so that a slice of a few hundred kilobytes is sketched on the pool's workers.
const OPTIONS: Record<Name, Record<string, unknown>> = {
  findNearDuplicates: { batchBytes: 16 << 10 }, dedup: { batchBytes: 16 << 10 }, sketchCrawl: { batchBytes: 16 << 10 },
  findCollections: {}, findMirrors: {}, studyDuplicates: {}, findSignatureCollisions: {},
};
const NAMES = Object.keys(OPTIONS) as Name[];
// Not yet in a browser: collections and mirrors key not-found pages by a SHA-1 of their bytes
// (node:crypto, synchronous), content-mode signatures spill the HTML pages to a temporary file.
const NODE_ONLY: Record<string, string> = { findCollections: 'node:crypto: createHash', findMirrors: 'node:crypto: createHash' };
const BROWSER = NAMES.filter((n) => !(n in NODE_ONLY));

/** A page as it crosses into the browser: its URL and its text as HTML or plain text. */
interface WirePage { url: string; html?: string; text?: string }

/** The slice as pages: the sample's documents of HOSTS, read by the Node folder reader, in its order. */
async function slicePages(): Promise<{ pages: WirePage[]; files: { path: string; url: string; bytes: number[] }[] }> {
  const pages: WirePage[] = [], files: { path: string; url: string; bytes: number[] }[] = [];
  for await (const doc of readCrawl(join(root, 'sample'), { links: false })) {
    if (!HOSTS.includes(new URL(doc.url).host)) continue;
    const body = new TextDecoder(doc.charset ?? 'utf-8').decode(doc.bytes);
    pages.push(doc.contentType === 'text/html' ? { url: doc.url, html: body } : { url: doc.url, text: body });
    // as Files of a folder `crawl/` chosen in a page: those whose name says HTML
    if (doc.contentType === 'text/html' && /^http:\/\/[^?#]+\.html$/.test(doc.url)) {
      const path = `crawl/${doc.url.slice('http://'.length)}`;
      files.push({ path, url: mirrorPathToUrl(path.split('/').slice(1))!, bytes: [...new TextEncoder().encode(body)] });
    }
  }
  return { pages, files };
}

/** What one run gives, as compared: each record's JSON line and the summary's counts (its time left out). */
interface Run { lines: string[]; extra: string; summary: Record<string, unknown>; workers: number }

function summaryCounts(s: Record<string, unknown>): Record<string, unknown> {
  const { seconds: _s, workers: _w, ...rest } = s;
  return rest;
}

async function nodeRun(name: Name, pages: unknown[], workers?: number): Promise<Run> {
  const r = await (node[name] as unknown as (input: unknown, o: unknown) => Promise<Record<string, unknown>>)(pages, { ...OPTIONS[name], ...(workers ? { workers } : {}) });
  const { records, summary, ...extra } = r as { records: unknown[]; summary: Record<string, unknown> };
  return { lines: records.map((x) => JSON.stringify(x)), extra: JSON.stringify(extra, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)), summary: summaryCounts(summary), workers: summary.workers as number };
}

if (!existsSync(CHROMIUM) && SKIP) {
  console.log(`skipped (RESEMBLE_SKIP_BROWSER=1): chromium not installed (${CHROMIUM} is missing)`);
  test.skip('entry points in Chromium', () => {});
} else if (!existsSync(CHROMIUM)) {
  test('Chromium is installed (the browser build is tested in it)', () => {
    assert.unreachable(`no Chromium at ${CHROMIUM}: apt-get install -y chromium, or point RESEMBLE_CHROMIUM at one`);
  });
} else {
  let context: BrowserContext;
  let page: Page;
  let server: { url: string; close(): Promise<void> };
  let profile: string;
  const problems: string[] = [];
  let slice: Awaited<ReturnType<typeof slicePages>>;
  const want = new Map<Name, Run>();

  let startFailure: string | undefined;

  test.before(async () => {
    try {
      await start();
    } catch (e) {
      // uvu loses an error thrown here: the first test reports it
      startFailure = (e as Error).stack ?? String(e);
    }
  });

  const start = async () => {
    console.log(ensureDist('browser'));
    const { chromium } = await import('playwright-core');
    slice = await slicePages();
    for (const name of NAMES) want.set(name, await nodeRun(name, slice.pages));
    server = await startServer(0);
    profile = mkdtempSync(join(tmpdir(), 'resemble-chromium-'));
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
    page = context.pages()[0] ?? await context.newPage();
    page.setDefaultTimeout(TIMEOUT);
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
    // any page of the server's origin (a stylesheet shown as text will do): the bundles are imported from /dist/
    await page.goto(`${server.url}style.css`);
  };

  test.after(async () => {
    await context?.close();
    await server?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  /** Runs entry point `name` in the page on `input` (pages, or files made there); returns what is compared. */
  const browserRun = (name: Name, input: { pages?: WirePage[]; files?: { path: string; bytes: number[] }[] }, options: Record<string, unknown>, bundle = 'browser.js') =>
    page.evaluate(async ({ name, input, options, bundle }) => {
      const lib = await import(`/dist/${bundle}`);
      await lib.init();
      const items = input.pages ?? input.files!.map((f) => {
        const file = new File([new Uint8Array(f.bytes)], f.path.split('/').pop()!, { type: 'text/html' });
        Object.defineProperty(file, 'webkitRelativePath', { value: f.path });
        return file;
      });
      const r = await lib[name](items, options);
      const { records, summary, ...extra } = r;
      const { seconds: _s, workers, ...counts } = summary;
      return { lines: records.map((x: unknown) => JSON.stringify(x)), extra: JSON.stringify(extra, (_k: string, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)), summary: counts, workers };
    }, { name, input, options, bundle });

  test('Node and Chromium start', () => {
    if (startFailure) assert.unreachable(startFailure);
  });

  test('the slice holds pages of every host chosen, and Node finds something of each kind in it', () => {
    assert.ok(slice.pages.length >= 40, `${slice.pages.length} pages`);
    for (const name of ['findNearDuplicates', 'dedup', 'sketchCrawl', 'findCollections', 'findMirrors'] as const) {
      assert.ok(want.get(name)!.lines.length > 0, `${name} gives records on the slice`);
    }
  });

  for (const name of BROWSER) {
    test(`${name}: the browser's records are Node's, byte for byte, on 1 worker and on 3`, async () => {
      const w = want.get(name)!;
      for (const workers of [1, 3]) {
        const got = await browserRun(name, { pages: slice.pages }, { ...OPTIONS[name], workers });
        assert.is(got.lines.length, w.lines.length, `${name} (${workers} workers): as many records`);
        assert.equal(got.lines, w.lines, `${name} (${workers} workers): the same JSON lines`);
        assert.is(got.extra, w.extra, `${name} (${workers} workers): the same other fields`);
        assert.equal(got.summary, w.summary, `${name} (${workers} workers): the same counts`);
        if (workers === 3 && 'batchBytes' in OPTIONS[name]) assert.is(got.workers, 3, `${name} ran on the pool`);
      }
    });
  }

  for (const [name, call] of Object.entries(NODE_ONLY)) {
    test(`${name}: not yet in a browser, a coded E_IO naming the Node call`, async () => {
      const got = await page.evaluate(async ({ name, pages }) => {
        const lib = await import(`/dist/${'browser.js'}`);
        return lib[name](pages, {}).then(() => 'resolved', (e: { code?: string; message?: string }) => `${e.code} ${e.message}`);
      }, { name, pages: slice.pages });
      assert.match(got, `E_IO ${call} needs Node`);
    });
  }

  test('findNearDuplicates on File objects of a folder: the records of the same pages in Node', async () => {
    const w = await nodeRun('findNearDuplicates', slice.files.map((f) => ({ url: f.url, bytes: Uint8Array.from(f.bytes), contentType: 'text/html' })));
    assert.ok(w.lines.length > 0);
    const got = await browserRun('findNearDuplicates', { files: slice.files }, { ...OPTIONS.findNearDuplicates, workers: 2 });
    assert.equal(got.lines, w.lines);
  });

  test('the strict-CSP bundle gives the same records', async () => {
    const got = await browserRun('findNearDuplicates', { pages: slice.pages }, { ...OPTIONS.findNearDuplicates, workers: 2 }, 'browser-external.js');
    assert.equal(got.lines, want.get('findNearDuplicates')!.lines);
  });

  test('a path is refused with E_OPTION before any work; a Node-only option is a coded error', async () => {
    const codes = await page.evaluate(async () => {
      const lib = await import(`/dist/${'browser.js'}`);
      const runs = [lib.findNearDuplicates('sample/', {}), lib.findNearDuplicates([{ url: 'http://a.test/', text: 'x' }], { engine: 'duckdb' })];
      return Promise.all(runs.map((p: Promise<unknown>) => p.then(() => 'resolved', (e: { code?: string }) => e.code ?? String(e))));
    });
    assert.equal(codes, ['E_OPTION', 'E_IO']);
  });

  test('no page errors', () => {
    assert.equal(problems, []);
  });
}

test.run();
