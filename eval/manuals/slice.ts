/**
 * Writes a small slice of the realistic crawl, with its truth, as a test fixture:
 *
 *   node --import tsx eval/manuals/slice.ts [--sources DIR] [--out test/fixtures/realistic-slice]
 *
 * The slice holds, from the same plan and packages as the full crawl: ten Django release-note pages
 * in four copies (origin, exact mirror at the same path, partial mirror under another prefix,
 * lagging partial copy), eight Paper.js reference pages in three releases (origin and two lagging
 * releases side by side on one host), five pages of the Japanese Debian handbook and their EUC-JP
 * mirror under another prefix, and a handbook page copied onto a blog with its links made absolute
 * (with its origin page). No host root pages. Pages are byte for byte those of the full crawl.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { dataDirs } from './build.js';
import { layOut, type Page } from './layout.js';
import { writeFolder } from './output.js';
import { COPIES, WORKS } from './plan.js';
import { fetchSources, packageKey, SOURCES, writeSourcesJson } from './sources.js';
import { writeTruth } from './truth.js';

/** Which pages of which copies go into the slice: by work, the copies and the pages inside the manual. */
export const SLICE: Array<{ work: string; copies: string[]; pages: string[] }> = [
  { work: 'django-3.2', copies: ['django-origin', 'django-mirror', 'django-partial', 'django-archive'], pages: [
    'releases/1.2.1.html', 'releases/1.2.3.html', 'releases/1.2.6.html', 'releases/1.2.7.html', 'releases/1.3.1.html',
    'releases/1.3.2.html', 'releases/1.3.3.html', 'releases/1.4.1.html', 'releases/1.9.4.html', 'releases/2.2.17.html'] },
  { work: 'paper', copies: ['paper-origin', 'paper-lagging', 'paper-older'], pages: [
    'classes/index.html', 'classes/Event.html', 'classes/Key.html', 'classes/PaperScript.html', 'classes/Gradient.html',
    'classes/HitResult.html', 'classes/GradientStop.html', 'classes/KeyEvent.html'] },
  { work: 'handbook-ja', copies: ['handbook-ja-origin', 'handbook-ja-eucjp'], pages: [] },
  { work: 'handbook-en', copies: ['handbook-en-origin', 'single-handbook'], pages: ['sect.apt-get.html'] },
];

/** The five smallest pages of the Japanese handbook (by UTF-8 size, then path). */
function smallest(pages: Page[], copy: string, n: number): string[] {
  return pages.filter((p) => p.copy === copy).sort((a, b) => a.bytes.length - b.bytes.length || (a.page < b.page ? -1 : 1)).slice(0, n).map((p) => p.page);
}

/** Takes every page of the crawl; returns the pages of the slice. */
export function slicePages(all: Page[]): Page[] {
  const wanted = SLICE.map((s) => ({ ...s, pages: new Set(s.pages.length ? s.pages : smallest(all, s.copies[0], 5)) }));
  return all.filter((p) => wanted.some((s) => s.work === p.work && s.copies.includes(p.copy) && s.pages.has(p.page)));
}

async function main() {
  const { values } = parseArgs({ options: { sources: { type: 'string' }, out: { type: 'string' } } });
  const sources = values.sources ? resolve(values.sources) : dataDirs({}).sources;
  const out = resolve(values.out ?? 'test/fixtures/realistic-slice');
  const fetched = fetchSources(sources, (s) => console.error(s));
  const all = layOut(WORKS, COPIES, SOURCES, (s) => fetched.get(packageKey(s))!.dir);
  const pages = slicePages(all);
  const copyIds = new Set(pages.map((p) => p.copy));
  const copies = COPIES.filter((c) => copyIds.has(c.id));
  const works = WORKS.filter((w) => copies.some((c) => c.work === w.id));
  writeFolder(join(out, 'crawl'), pages);
  rmSync(join(out, 'truth'), { recursive: true, force: true });
  mkdirSync(join(out, 'truth'), { recursive: true });
  writeSourcesJson(join(out, 'truth'), copies.map((c) => c.source), fetched);
  const summary = await writeTruth(join(out, 'truth'), works, copies, pages, {}, (s) => console.error(s));
  console.log(JSON.stringify(summary, null, 1));
}

if (process.argv[1]?.endsWith('slice.ts')) await main();
