/**
 * Builds the realistic evaluation crawl from real published documentation (see README.md here):
 *
 *   node --max-old-space-size=8192 --import tsx eval/manuals/build.ts [--sources DIR] [--out DIR] [--no-warc]
 *
 * Packages are downloaded once into the sources folder (default $RESEMBLE_DATA/sources) and the
 * crawl is written to the output folder (default $RESEMBLE_DATA/realistic):
 *   crawl/            the wget-mirror layout, host/path/file.html
 *   crawl.jsonl       the same pages, {url, html} per line
 *   crawl.warc.gz     the same pages as WARC response records (unless --no-warc)
 *   truth/            sources.json, pages.json, copies.json, pairs.jsonl, clusters.json, summary.json
 * Same packages → same crawl, byte for byte (summary.json holds a digest of it).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { layOut, layOutOtherFiles, type Page } from './layout.js';
import { jsonlRecords, writeFolder, writeJsonl, writeWarc } from './output.js';
import { COPIES, WORKS, type CopySpec, type Work } from './plan.js';
import { fetchSources, packageKey, SOURCES, writeSourcesJson, type Source } from './sources.js';
import { writeTruth } from './truth.js';

/** Takes the command-line flags; returns the sources and output folders, from flags or $RESEMBLE_DATA. */
export function dataDirs(values: { sources?: string; out?: string }): { sources: string; out: string } {
  const data = process.env.RESEMBLE_DATA;
  const sources = values.sources ?? (data ? join(data, 'sources') : undefined);
  const out = values.out ?? (data ? join(data, 'realistic') : undefined);
  if (!sources || !out) {
    console.error('set RESEMBLE_DATA (a folder outside the repository) or give --sources DIR and --out DIR');
    process.exit(2);
  }
  return { sources: resolve(sources), out: resolve(out) };
}

/**
 * Builds a further crawl (cpp-references.ts, rust-books.ts, octave-lilypond-javadoc.ts) as a folder, JSONL and WARC, and its
 * truth files: the command-line flags --sources and --out (default $RESEMBLE_DATA/NAME), the
 * packages fetched, the copies laid out and written, the truth computed; prints the truth's summary.
 */
export async function buildCrawl(name: string, sources: Source[], works: Work[], copies: CopySpec[]): Promise<void> {
  const { values } = parseArgs({ options: { sources: { type: 'string' }, out: { type: 'string' } } });
  const data = process.env.RESEMBLE_DATA;
  const dirs = dataDirs({ sources: values.sources, out: values.out ?? (data ? join(data, name) : undefined) });
  const log = (s: string) => console.error(s);
  const fetched = fetchSources(dirs.sources, log, sources);
  const pages = layOut(works, copies, sources, (s) => fetched.get(packageKey(s))!.dir);
  log(`laid out ${pages.length} pages of ${copies.length} copies on ${new Set(pages.map((p) => p.file.split('/')[0])).size} hosts`);
  mkdirSync(dirs.out, { recursive: true });
  writeFolder(join(resolve(dirs.out), 'crawl'), pages);
  // the copies' other files (withFiles): in the folder only, beside the pages; JSONL and WARC hold the pages
  const others = layOutOtherFiles(copies, sources, (s) => fetched.get(packageKey(s))!.dir);
  for (const f of others) {
    const path = join(resolve(dirs.out), 'crawl', f.file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, f.bytes);
  }
  if (others.length) log(`and ${others.length} other files beside the pages of ${copies.filter((c) => c.withFiles).length} copies (folder only, not in the truth)`);
  writeJsonl(join(dirs.out, 'crawl.jsonl'), jsonlRecords(pages));
  writeWarc(join(dirs.out, 'crawl.warc.gz'), pages);
  const truthDir = join(dirs.out, 'truth');
  mkdirSync(truthDir, { recursive: true });
  writeSourcesJson(truthDir, copies.map((c) => c.source), fetched, sources);
  const summary = await writeTruth(truthDir, works, copies, pages, { digest: crawlDigest(pages) }, log);
  console.log(JSON.stringify(summary, null, 1));
}

/** A digest of a crawl: the SHA-256 of every file path and its bytes, in walk order. */
export function crawlDigest(pages: Page[]): string {
  const h = createHash('sha256');
  for (const p of pages) h.update(`${p.file}\n${p.bytes.length}\n`).update(p.bytes);
  return h.digest('hex');
}

async function main() {
  const { values } = parseArgs({ options: { sources: { type: 'string' }, out: { type: 'string' }, 'no-warc': { type: 'boolean' } } });
  const dirs = dataDirs(values);
  const log = (s: string) => console.error(s);
  const fetched = fetchSources(dirs.sources, log);
  const dirOf = (s: (typeof SOURCES)[number]) => fetched.get(packageKey(s))!.dir;
  const pages = layOut(WORKS, COPIES, SOURCES, dirOf);
  log(`laid out ${pages.length} pages of ${COPIES.length} copies on ${new Set(pages.map((p) => p.file.split('/')[0])).size} hosts`);
  mkdirSync(dirs.out, { recursive: true });
  writeFolder(join(dirs.out, 'crawl'), pages);
  writeJsonl(join(dirs.out, 'crawl.jsonl'), jsonlRecords(pages));
  if (!values['no-warc']) writeWarc(join(dirs.out, 'crawl.warc.gz'), pages);
  else rmSync(join(dirs.out, 'crawl.warc.gz'), { force: true });
  const truthDir = join(dirs.out, 'truth');
  mkdirSync(truthDir, { recursive: true });
  writeSourcesJson(truthDir, COPIES.map((c) => c.source), fetched);
  const summary = await writeTruth(truthDir, WORKS, COPIES, pages, { digest: crawlDigest(pages) }, log);
  console.log(JSON.stringify(summary, null, 1));
}

if (process.argv[1]?.endsWith('build.ts')) await main();
