/**
 * A second realistic crawl, shaped differently from the first (a check against tuning to one
 * crawl): the same packages, other roles and arrangements. The older builds are the origins and
 * the newer ones the copies; copies sit at other depths and under other prefixes; partial copies
 * lack their contents page (and so the links that join them), one as small as a fifth of the
 * manual; two releases of Paper.js and two of Django share hosts with other manuals; the English
 * and Chinese handbooks are mirrored instead of the Japanese one; single pages land on a host that
 * also mirrors a manual. Truth as for the first crawl (how it was built, exact reference Jaccard).
 *
 *   node --max-old-space-size=8192 --import tsx eval/manuals/realistic-variant.ts [--sources DIR] [--out DIR]
 *   node --import tsx eval/manuals/evaluate.ts --data DIR --only collections
 *
 * --sources defaults to $RESEMBLE_DATA/sources (the cache build.ts fills), --out to
 * $RESEMBLE_DATA/realistic-variant.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { crawlDigest, dataDirs } from './build.js';
import { layOut } from './layout.js';
import { jsonlRecords, writeFolder, writeJsonl } from './output.js';
import { WORKS, type CopySpec } from './plan.js';
import { fetchSources, packageKey, SOURCES, writeSourcesJson } from './sources.js';
import { writeTruth } from './truth.js';

const all = { all: true } as const;
const part = (fraction: number, salt: string) => ({ fraction, salt });

/** The variant's copies (ids name the roles the truth files report). */
export const VARIANT_COPIES: CopySpec[] = [
  // Python: the older build is the origin, deep under its host; the newer one a lagging copy at the
  // top of a mirror host; a fifth of it on a host of its own.
  { id: 'python-origin', work: 'python-3.11', source: 'python-3.11-u8', host: 'docs.python.example.com', prefix: '/archive/releases/3.11/html/', select: all, note: 'origin (the older build)' },
  { id: 'python-newer', work: 'python-3.11', source: 'python-3.11-u9', host: 'py.mirror.example.org', prefix: '/3.11/', select: all, note: 'lagging copy: the newer build' },
  { id: 'python-fifth', work: 'python-3.11', source: 'python-3.11-u9', host: 'pydocs.example.net', prefix: '/python/', select: part(0.2, 'python-fifth'), note: 'partial copy: a fifth of the pages' },
  // Django: the older build as origin; two partial copies of the newer one with different pages,
  // one beside Paper.js releases on a shared host; an exact mirror of the origin.
  { id: 'django-origin', work: 'django-3.2', source: 'django-3.2-u3', host: 'django.example.org', prefix: '/docs/3.2/', select: all, note: 'origin (the older build)' },
  { id: 'django-exact', work: 'django-3.2', source: 'django-3.2-u3', host: 'ftp.example.edu', prefix: '/pub/doc/django/', select: all, note: 'exact mirror under another prefix' },
  { id: 'django-newer-a', work: 'django-3.2', source: 'django-3.2-u7', host: 'shared.example.com', prefix: '/django/', select: part(0.7, 'variant-a'), note: 'lagging partial copy' },
  { id: 'django-newer-b', work: 'django-3.2', source: 'django-3.2-u7', host: 'docs-cache.example.net', prefix: '/d/3.2/', select: part(0.45, 'variant-b'), note: 'lagging partial copy, other pages' },
  // Git: the older build as origin, the newer one mirrored twice, once in part.
  { id: 'git-origin', work: 'git-2.39', source: 'git-2.39-u2', host: 'git.example.org', prefix: '/htmldocs/', select: all, note: 'origin (the older build)' },
  { id: 'git-newer', work: 'git-2.39', source: 'git-2.39-u3', host: 'ftp.example.edu', prefix: '/pub/doc/git/', select: all, note: 'lagging mirror' },
  { id: 'git-newer-part', work: 'git-2.39', source: 'git-2.39-u3', host: 'shared.example.com', prefix: '/scm/git/', select: part(0.3, 'git-variant'), note: 'lagging partial copy' },
  // The handbook: the three translations each on a host of their own; English mirrored exactly,
  // Chinese in part; Japanese found once.
  { id: 'handbook-en-origin', work: 'handbook-en', source: 'handbook-en', host: 'debian-handbook.example.org', prefix: '/en/', select: all, note: 'origin' },
  { id: 'handbook-ja-origin', work: 'handbook-ja', source: 'handbook-ja', host: 'debian-handbook.example.org', prefix: '/ja/', select: all, note: 'origin' },
  { id: 'handbook-zh-origin', work: 'handbook-zh', source: 'handbook-zh', host: 'debian-handbook.example.org', prefix: '/zh/', select: all, note: 'origin' },
  { id: 'handbook-en-mirror', work: 'handbook-en', source: 'handbook-en', host: 'books.example.net', prefix: '/debian/handbook/english/', select: all, note: 'exact mirror under another prefix' },
  { id: 'handbook-zh-part', work: 'handbook-zh', source: 'handbook-zh', host: 'books.example.net', prefix: '/debian/handbook/chinese/', select: part(0.6, 'zh-variant'), charset: 'GB2312', note: 'partial mirror, re-encoded in GB2312' },
  // Paper.js: 0.10.3 as origin; 0.12.18 and 0.12.11 side by side on the shared host.
  { id: 'paper-origin', work: 'paper', source: 'paper-0.10.3', host: 'paperjs.example.com', prefix: '/docs/', select: all, note: 'origin (an older release)' },
  { id: 'paper-newest', work: 'paper', source: 'paper-0.12.18', host: 'shared.example.com', prefix: '/paper/0.12.18/', select: all, note: 'lagging copy: a newer release' },
  { id: 'paper-newer', work: 'paper', source: 'paper-0.12.11', host: 'shared.example.com', prefix: '/paper/0.12.11/', select: all, note: 'lagging copy: a newer release' },
  // glMatrix: both releases, each mirrored exactly; the Lua manuals and the FAQs as unrelated sites.
  { id: 'gl-matrix-origin', work: 'gl-matrix', source: 'gl-matrix-2.8.1', host: 'glmatrix.example.com', prefix: '/docs/', select: all, note: 'origin' },
  { id: 'gl-matrix-mirror', work: 'gl-matrix', source: 'gl-matrix-2.8.1', host: 'cdn-docs.example.net', prefix: '/gl-matrix/latest/', select: all, note: 'exact mirror' },
  { id: 'gl-matrix-old', work: 'gl-matrix', source: 'gl-matrix-2.4.0', host: 'cdn-docs.example.net', prefix: '/gl-matrix/2.4.0/', select: all, note: 'distant release beside the mirror' },
  { id: 'lua-5.1', work: 'lua', source: 'lua-5.1', host: 'lua.example.com', prefix: '/5.1/', select: all, note: 'origin' },
  { id: 'lua-5.2', work: 'lua', source: 'lua-5.2', host: 'lua.example.com', prefix: '/5.2/', select: all, note: 'distant release beside it' },
  { id: 'faq-en', work: 'faq-en', source: 'faq-en', host: 'www.debian.example.com', prefix: '/FAQ/', select: all, note: 'origin' },
  { id: 'faq-zh', work: 'faq-zh', source: 'faq-zh', host: 'www.debian.example.com', prefix: '/FAQ/zh/', select: all, note: 'origin' },
  { id: 'haskell98', work: 'haskell98', source: 'haskell98', host: 'haskell.example.com', prefix: '/report/', select: all, note: 'unrelated site' },
  // Single pages on the shared host and on the handbook mirror's host.
  { id: 'single-python', work: 'python-3.11', source: 'python-3.11-u9', host: 'shared.example.com', prefix: '/notes/',
    select: { single: [['library/os.html', 'python-os.html']] }, absoluteLinksTo: 'python-origin', note: 'single page copied, links made absolute to the origin host' },
  { id: 'single-git', work: 'git-2.39', source: 'git-2.39-u3', host: 'books.example.net', prefix: '/misc/',
    select: { single: [['git-commit.html', 'git-commit.html']] }, note: 'single page copied, relative links kept' },
];

async function main() {
  const { values } = parseArgs({ options: { sources: { type: 'string' }, out: { type: 'string' } } });
  const data = process.env.RESEMBLE_DATA;
  const { sources, out } = dataDirs({ sources: values.sources, out: values.out ?? (data ? join(data, 'realistic-variant') : undefined) });
  const log = (s: string) => console.error(s);
  const fetched = fetchSources(resolve(sources), log);
  const pages = layOut(WORKS, VARIANT_COPIES, SOURCES, (s) => fetched.get(packageKey(s))!.dir);
  log(`laid out ${pages.length} pages of ${VARIANT_COPIES.length} copies on ${new Set(pages.map((p) => p.file.split('/')[0])).size} hosts`);
  mkdirSync(resolve(out), { recursive: true });
  writeFolder(join(resolve(out), 'crawl'), pages);
  writeJsonl(join(resolve(out), 'crawl.jsonl'), jsonlRecords(pages));
  const truthDir = join(resolve(out), 'truth');
  mkdirSync(truthDir, { recursive: true });
  writeSourcesJson(truthDir, VARIANT_COPIES.map((c) => c.source), fetched);
  const summary = await writeTruth(truthDir, WORKS, VARIANT_COPIES, pages, { digest: crawlDigest(pages) }, log);
  console.log(JSON.stringify(summary, null, 1));
}

if (process.argv[1]?.endsWith('realistic-variant.ts')) await main();
