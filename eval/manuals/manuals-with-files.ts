/**
 * An eighth realistic crawl: manuals mirrored with everything their packages ship beside the
 * pages, as a mirror that fetched a whole folder holds them. Python's and the Developer's
 * Reference's Sphinx builds with their `_sources/*.rst.txt` (each page's text as reStructuredText,
 * linked from no page of these builds), `_static` scripts and stylesheets, images and search
 * indexes; Git's AsciiDoc pages with their `.txt` sources in the same folder; Django's Sphinx
 * build with its scripts; glMatrix's JSDoc output with its scripts, two releases side by side;
 * the Paper.js reference with its scripts and stylesheet, mirrored without them. Exact and partial mirrors
 * under other prefixes, a lagging build, no host root page crawled. The other files are in the
 * crawl folder only (not in `crawl.jsonl` or the WARC) and not in the truth: every command reads
 * them, none is scored on them.
 *
 *   node --max-old-space-size=8192 --import tsx eval/manuals/manuals-with-files.ts [--sources DIR] [--out DIR]
 *
 * Same layout and truth files as build.ts (default output $RESEMBLE_DATA/eighth).
 */
import { buildCrawl } from './build.js';
import { WORKS, type CopySpec } from './plan.js';
import { SEVENTH_SOURCES, SEVENTH_WORKS } from './erlang-vim-mail-charsets.js';
import { SOURCES } from './sources.js';

const part = (fraction: number, salt: string) => ({ fraction, salt });
const USED = ['python-3.11-u9', 'python-3.11-u8', 'django-3.2-u7', 'django-3.2-u3', 'git-2.39-u3', 'gl-matrix-2.8.1', 'gl-matrix-2.4.0', 'paper-0.12.18'];

export const EIGHTH_SOURCES = [...SOURCES.filter((s) => USED.includes(s.id)), ...SEVENTH_SOURCES.filter((s) => s.id === 'devref-en')];
export const EIGHTH_WORKS = [
  ...WORKS.filter((w) => ['python-3.11', 'django-3.2', 'git-2.39', 'gl-matrix', 'paper'].includes(w.id))
    .map((w) => ({ ...w, releases: Object.fromEntries(Object.entries(w.releases).filter(([id]) => USED.includes(id))) })),
  ...SEVENTH_WORKS.filter((w) => w.id === 'devref-en'),
];

export const EIGHTH_COPIES: CopySpec[] = [
  // Python: the whole build folder, an exact mirror of it under another prefix, the previous build partly mirrored.
  { id: 'py-origin', work: 'python-3.11', source: 'python-3.11-u9', host: 'docs.python.example.org', prefix: '/3.11/', select: { all: true }, withFiles: true,
    note: 'origin, with its sources, scripts and images' },
  { id: 'py-mirror', work: 'python-3.11', source: 'python-3.11-u9', host: 'ftp.example.edu', prefix: '/pub/python/doc/3.11/', select: { all: true }, withFiles: true,
    note: 'exact mirror of the whole folder under another prefix' },
  { id: 'py-lagging', work: 'python-3.11', source: 'python-3.11-u8', host: 'python.example.cn', prefix: '/docs/3.11/', select: part(0.6, 'eight-py'), withFiles: true,
    note: 'previous build, partly mirrored with its files' },
  // Django: the newer build and the older one mirrored under another prefix, both with their files.
  { id: 'dj-origin', work: 'django-3.2', source: 'django-3.2-u7', host: 'docs.django.example.com', prefix: '/en/3.2/', select: { all: true }, withFiles: true,
    note: 'origin, with its scripts and images' },
  { id: 'dj-lagging', work: 'django-3.2', source: 'django-3.2-u3', host: 'django.mirror.example.org', prefix: '/docs/3.2/', select: { all: true }, withFiles: true,
    note: 'previous build mirrored under another prefix, with its files' },
  // Git: AsciiDoc pages with their .txt sources in the same folder; half of it mirrored.
  { id: 'git-origin', work: 'git-2.39', source: 'git-2.39-u3', host: 'git-scm.example.com', prefix: '/docs/', select: { all: true }, withFiles: true,
    note: 'origin, each page beside its AsciiDoc source' },
  { id: 'git-partial', work: 'git-2.39', source: 'git-2.39-u3', host: 'kernel.example.org', prefix: '/pub/software/scm/git/docs/', select: part(0.5, 'eight-git'), withFiles: true,
    note: 'partial mirror under another prefix, with the sources of the same half' },
  // Developer's Reference: Sphinx with its files, and an exact mirror of the folder.
  { id: 'devref-origin', work: 'devref-en', source: 'devref-en', host: 'www.debian.example.org', prefix: '/doc/manuals/developers-reference/', select: { all: true }, withFiles: true,
    note: 'origin, with its sources and scripts' },
  { id: 'devref-mirror', work: 'devref-en', source: 'devref-en', host: 'debian.mirror.example.net', prefix: '/devref/', select: { all: true }, withFiles: true,
    note: 'exact mirror under another prefix' },
  // glMatrix: two releases side by side on one host (distant: no mirror), each with its scripts.
  { id: 'glm-2.8', work: 'gl-matrix', source: 'gl-matrix-2.8.1', host: 'glmatrix.example.net', prefix: '/docs/2.8.1/', select: { all: true }, withFiles: true,
    note: 'origin, with its scripts' },
  { id: 'glm-2.4', work: 'gl-matrix', source: 'gl-matrix-2.4.0', host: 'glmatrix.example.net', prefix: '/docs/2.4.0/', select: { all: true }, withFiles: true,
    note: 'an older release beside it' },
  // Paper.js: the reference with its scripts and stylesheet, mirrored without them.
  { id: 'paper-origin', work: 'paper', source: 'paper-0.12.18', host: 'paperjs.example.org', prefix: '/reference/', select: { all: true }, withFiles: true,
    note: 'origin, with its scripts and stylesheet' },
  { id: 'paper-mirror', work: 'paper', source: 'paper-0.12.18', host: 'paper.mirror.example.com', prefix: '/js/paper/docs/', select: { all: true },
    note: 'exact mirror of the pages only' },
];

if (process.argv[1]?.endsWith('manuals-with-files.ts')) await buildCrawl('eighth', EIGHTH_SOURCES, EIGHTH_WORKS, EIGHTH_COPIES);
