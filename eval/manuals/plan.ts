/**
 * What goes where in the realistic crawl: the manuals (works), their releases, and every copy of
 * them on a host under a path prefix — origins, exact and prefix-shifted mirrors, partial and
 * lagging copies, distant releases, copies re-encoded in a legacy charset, single pages copied
 * onto other hosts, and sites found nowhere else. The truth about copies is derived from this plan
 * alone (see truth-layout.ts), never from the code under test.
 */

/** A manual: pages that correspond across its copies by their path inside the copy. */
export interface Work {
  id: string;
  title: string;
  /** Releases of the work by source id; releases on one `line` are lagging copies of each other, on different lines distant. */
  releases: Record<string, { release: string; line: string }>;
}

/** One copy of a work (or a part of it) on one host under one path prefix. */
export interface CopySpec {
  id: string;
  work: string;
  /** Source id (sources.ts): which release. */
  source: string;
  host: string;
  /** Path prefix of the copy on its host, starting and ending with '/'; never '/' alone (no host root pages). */
  prefix: string;
  /** 'all' pages, a deterministic `fraction` of them (chosen by a hash of the path), or single pages. */
  select: { all: true } | { fraction: number; salt: string } | { single: Array<[page: string, path: string]> };
  /** Re-encode the pages in this legacy charset (the label declared in the meta tag and XML prolog). */
  charset?: string;
  /** With `charset`: leave no declaration in the pages (a server sent it in a header a wget mirror does not keep). */
  undeclared?: boolean;
  /** Single-page copies: rewrite relative links to absolute URLs on this copy's host (as "save page" tools do). */
  absoluteLinksTo?: string;
  /**
   * The copy also holds every other file its manual's folder ships (source texts, scripts,
   * stylesheets, images, search indexes), selected as its pages are, as a mirror that fetched them
   * does: in the crawl folder, not in the truth (read by every command, never scored).
   */
  withFiles?: boolean;
  note: string;
}

/** The three languages of the Debian manuals: id suffix, handbook folder, name. */
const LANGUAGES: Array<[lang: string, folder: string, name: string]> = [['en', 'en-US', 'English'], ['ja', 'ja-JP', 'Japanese'], ['zh', 'zh-CN', 'Simplified Chinese']];

/** The works of one manual in three languages (translations are different works: none mirrors another). */
function translations(id: string, title: string, tool: string, release: string, line: string): Work[] {
  return LANGUAGES.map(([lang, , name]) => ({ id: `${id}-${lang}`, title: `${title}, ${name} ${tool}`, releases: { [`${id}-${lang}`]: { release, line } } }));
}

/** The whole of a single-release work on its own host and prefix (its source and work share the id). */
function origin(work: string, id: string, host: string, prefix: string): CopySpec {
  return { id, work, source: work, host, prefix, select: { all: true }, note: 'origin' };
}

export const WORKS: Work[] = [
  { id: 'python-3.11', title: 'Python 3.11 documentation (Sphinx)', releases: {
    'python-3.11-u9': { release: '3.11.2-6+deb12u9', line: '3.11' },
    'python-3.11-u8': { release: '3.11.2-6+deb12u8', line: '3.11' } } },
  { id: 'django-3.2', title: 'Django 3.2 documentation (Sphinx)', releases: {
    'django-3.2-u7': { release: '3.2.25-0+deb12u7', line: '3.2' },
    'django-3.2-u3': { release: '3.2.25-0+deb12u3', line: '3.2' } } },
  { id: 'git-2.39', title: 'Git 2.39 documentation (AsciiDoc)', releases: {
    'git-2.39-u3': { release: '2.39.5-0+deb12u3', line: '2.39' },
    'git-2.39-u2': { release: '2.39.5-0+deb12u2', line: '2.39' } } },
  ...translations('handbook', 'Debian Administrator\'s Handbook', '(Publican/DocBook)', '11.20220922', '11'),
  ...translations('maint-guide', 'Debian New Maintainers\' Guide', '(DocBook)', '1.2.53', '1.2'),
  ...translations('faq', 'Debian FAQ', '(DocBook)', '11.1', '11'),
  { id: 'lua', title: 'Lua Reference Manual', releases: {
    'lua-5.1': { release: '5.1.5-9', line: '5.1' },
    'lua-5.2': { release: '5.2.4-3', line: '5.2' } } },
  { id: 'haskell98', title: 'Haskell 98 Report', releases: { haskell98: { release: '20080907-10', line: '98' } } },
  { id: 'paper', title: 'Paper.js reference (JSDoc)', releases: {
    // 0.10.3 is two minor releases back but its pages are still close (median page Jaccard 0.81
    // to 0.12.18): measured, it is a lagging copy, not a distant one.
    'paper-0.12.18': { release: '0.12.18', line: '0.x' },
    'paper-0.12.11': { release: '0.12.11', line: '0.x' },
    'paper-0.10.3': { release: '0.10.3', line: '0.x' } } },
  { id: 'gl-matrix', title: 'glMatrix API documentation (JSDoc)', releases: {
    'gl-matrix-2.8.1': { release: '2.8.1', line: '2.8' },
    'gl-matrix-2.4.0': { release: '2.4.0', line: '2.4' } } },
];

export const COPIES: CopySpec[] = [
  // Python: an origin, an exact mirror under another prefix, a lagging copy (the previous build:
  // every page's date differs, four pages changed) beside other releases on an archive host.
  { id: 'python-origin', work: 'python-3.11', source: 'python-3.11-u9', host: 'www.python.example.org', prefix: '/docs/3.11/', select: { all: true },
    note: 'origin' },
  { id: 'python-mirror', work: 'python-3.11', source: 'python-3.11-u9', host: 'mirror.example.net', prefix: '/python/3.11/', select: { all: true },
    note: 'exact mirror under another prefix' },
  { id: 'python-archive', work: 'python-3.11', source: 'python-3.11-u8', host: 'archive.example.com', prefix: '/python/3.11.2/', select: { all: true },
    note: 'lagging copy: the previous release' },
  // Django: an origin, an exact mirror at the same path, a partial mirror under another prefix, a
  // lagging partial copy on the archive host.
  { id: 'django-origin', work: 'django-3.2', source: 'django-3.2-u7', host: 'docs.django.example.org', prefix: '/en/3.2/', select: { all: true },
    note: 'origin' },
  { id: 'django-mirror', work: 'django-3.2', source: 'django-3.2-u7', host: 'django-mirror.example.net', prefix: '/en/3.2/', select: { all: true },
    note: 'exact mirror at the same path' },
  { id: 'django-partial', work: 'django-3.2', source: 'django-3.2-u7', host: 'mirror.example.net', prefix: '/django/3.2/', select: { fraction: 0.35, salt: 'django-partial' },
    note: 'partial mirror under another prefix' },
  { id: 'django-archive', work: 'django-3.2', source: 'django-3.2-u3', host: 'archive.example.com', prefix: '/django/3.2.25/', select: { fraction: 0.6, salt: 'django-archive' },
    note: 'lagging partial copy: the previous release, some pages missing' },
  // Git: an origin, a lagging mirror under another prefix, a partial mirror.
  { id: 'git-origin', work: 'git-2.39', source: 'git-2.39-u3', host: 'git-scm.example.org', prefix: '/docs/', select: { all: true },
    note: 'origin' },
  { id: 'git-mirror', work: 'git-2.39', source: 'git-2.39-u2', host: 'mirror.example.net', prefix: '/git/htmldocs/', select: { all: true },
    note: 'lagging mirror under another prefix: the previous release' },
  { id: 'git-partial', work: 'git-2.39', source: 'git-2.39-u3', host: 'files.example.com', prefix: '/pub/software/scm/git/docs/', select: { fraction: 0.5, salt: 'git-partial' },
    note: 'partial mirror under another prefix' },
  // The Debian handbook: three translations side by side on one host; the Japanese one mirrored in
  // EUC-JP under another prefix, half of the Chinese one in GB2312.
  ...LANGUAGES.map(([lang, folder]) => origin(`handbook-${lang}`, `handbook-${lang}-origin`, 'handbook.example.org', `/${folder}/`)),
  { id: 'handbook-ja-eucjp', work: 'handbook-ja', source: 'handbook-ja', host: 'nihongo.example', prefix: '/doc/debian-handbook/', select: { all: true }, charset: 'EUC-JP',
    note: 'exact mirror under another prefix, re-encoded in EUC-JP' },
  { id: 'handbook-zh-gb2312', work: 'handbook-zh', source: 'handbook-zh', host: 'cn-mirror.example.net', prefix: '/debian/handbook/', select: { fraction: 0.5, salt: 'handbook-zh' },
    charset: 'GB2312', note: 'partial mirror under another prefix, re-encoded in GB2312' },
  // Smaller Debian manuals, their translations side by side in one folder as the Debian site has them.
  ...LANGUAGES.map(([lang]) => origin(`maint-guide-${lang}`, `maint-guide-${lang}`, 'www.debian.example.org', '/doc/manuals/maint-guide/')),
  { id: 'maint-guide-ja-sjis', work: 'maint-guide-ja', source: 'maint-guide-ja', host: 'nihongo.example', prefix: '/debian/maint-guide/', select: { all: true }, charset: 'Shift_JIS',
    note: 'exact mirror under another prefix, re-encoded in Shift_JIS' },
  ...LANGUAGES.map(([lang]) => origin(`faq-${lang}`, `faq-${lang}`, 'www.debian.example.org', '/doc/manuals/debian-faq/')),
  // Paper.js: the current reference, and on the archive host two older releases side by side.
  { id: 'paper-origin', work: 'paper', source: 'paper-0.12.18', host: 'paperjs.example.org', prefix: '/reference/', select: { all: true }, note: 'origin' },
  { id: 'paper-lagging', work: 'paper', source: 'paper-0.12.11', host: 'archive.example.com', prefix: '/paperjs/0.12.11/', select: { all: true },
    note: 'lagging copy: an older patch release' },
  { id: 'paper-older', work: 'paper', source: 'paper-0.10.3', host: 'archive.example.com', prefix: '/paperjs/0.10.3/', select: { all: true },
    note: 'lagging copy: an older minor release' },
  // Lua: two major releases side by side; glMatrix: a distant release on another host.
  { id: 'lua-5.1', work: 'lua', source: 'lua-5.1', host: 'lua.example.org', prefix: '/manual/5.1/', select: { all: true }, note: 'origin' },
  { id: 'lua-5.2', work: 'lua', source: 'lua-5.2', host: 'lua.example.org', prefix: '/manual/5.2/', select: { all: true }, note: 'distant release beside it' },
  { id: 'gl-matrix-origin', work: 'gl-matrix', source: 'gl-matrix-2.8.1', host: 'glmatrix.example.net', prefix: '/docs/', select: { all: true }, note: 'origin' },
  { id: 'gl-matrix-old', work: 'gl-matrix', source: 'gl-matrix-2.4.0', host: 'js-docs.example.net', prefix: '/gl-matrix/2.4.0/', select: { all: true }, note: 'distant release on another host' },
  // A site found nowhere else.
  { id: 'haskell98', work: 'haskell98', source: 'haskell98', host: 'haskell.example.org', prefix: '/onlinereport/', select: { all: true }, note: 'unrelated site' },
  // Single pages copied onto unrelated hosts.
  { id: 'single-python', work: 'python-3.11', source: 'python-3.11-u9', host: 'blog.example.com', prefix: '/2024/03/',
    select: { single: [['library/functions.html', 'python-builtin-functions.html']] }, note: 'single page copied, relative links kept (they point to pages not there)' },
  { id: 'single-django', work: 'django-3.2', source: 'django-3.2-u7', host: 'blog.example.com', prefix: '/2024/05/',
    select: { single: [['ref/models/querysets.html', 'django-queryset-api.html']] }, absoluteLinksTo: 'django-origin',
    note: 'single page copied, relative links made absolute to the origin host' },
  { id: 'single-git', work: 'git-2.39', source: 'git-2.39-u3', host: 'blog.example.com', prefix: '/notes/',
    select: { single: [['git-rebase.html', 'git-rebase.html']] }, note: 'single page copied, relative links kept' },
  { id: 'single-handbook', work: 'handbook-en', source: 'handbook-en', host: 'blog.example.com', prefix: '/notes/',
    select: { single: [['sect.apt-get.html', 'debian-apt-get.html']] }, absoluteLinksTo: 'handbook-en-origin',
    note: 'single page copied, relative links made absolute to the origin host' },
  { id: 'single-paper', work: 'paper', source: 'paper-0.12.18', host: 'haskell.example.org', prefix: '/misc/',
    select: { single: [['classes/Path.html', 'paperjs-path.html']] }, note: 'single page copied onto an unrelated site, relative links kept' },
];
