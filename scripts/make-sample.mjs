#!/usr/bin/env node
// Regenerates sample/: a small constructed crawl, laid out as `wget --mirror` writes it, made of
// real public-domain SQLite documentation pages and a few freely licensed Debian FAQ pages.
//
// Fetch the source (Debian 12 "bookworm" packages; any machine with apt):
//   apt-get download sqlite3-doc debian-faq-de      # sqlite3-doc 3.40.1-2+deb12u2, debian-faq-de 11.1
//   mkdir src && for f in sqlite3-doc_*.deb debian-faq-de_*.deb; do dpkg-deb -x "$f" src; done
// Then:
//   node scripts/make-sample.mjs src [sample]
//
// Every edit is listed below and must match its source exactly once, so a different package
// version fails loudly instead of producing a different sample. No randomness, no timestamps.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const [srcArg, outArg = 'sample'] = process.argv.slice(2);
if (!srcArg) {
  console.error('usage: node scripts/make-sample.mjs <extracted-packages-dir> [out-dir]');
  process.exit(2);
}
const SQLITE = join(srcArg, 'usr/share/doc/sqlite3');
const FAQ = join(srcArg, 'usr/share/doc/debian/FAQ/de');
for (const dir of [SQLITE, FAQ]) {
  if (!existsSync(dir)) {
    console.error(`missing ${dir}: extract sqlite3-doc and debian-faq-de into ${srcArg} first`);
    process.exit(2);
  }
}
const OUT = outArg;

// ---------------------------------------------------------------------------------------------
// What goes where.

const ORIGIN = 'sqlite.example.org';
const ALIAS = 'www.sqlite.example.org';
const MIRROR = 'sqlite-mirror.example.net';
const FULL_COPY = 'docs.example.com';
const LAGGING_COPY = 'archive.example.com';
const PARTIAL_COPY = 'files.test';
const BLOG = 'blog.example.com';
const NEWS = 'news.example.net';
const NOTES = 'notes.example.com';
const FAQ_HOST = 'faq.example.net';

const HOSTS = [
  [ORIGIN, '192.0.2.10'],
  [ALIAS, '192.0.2.10'],
  [MIRROR, '192.0.2.11'],
  [FULL_COPY, '198.51.100.20'],
  [LAGGING_COPY, '198.51.100.77'],
  [PARTIAL_COPY, '203.0.113.5'],
  [BLOG, '203.0.113.40'],
  [NEWS, '203.0.113.90'],
  [NOTES, '2001:db8::25'],
  [FAQ_HOST, '198.51.100.140'],
];

/** Top-level SQLite pages kept on the origin (the navigation targets and a few short articles). */
const ORIGIN_PAGES = [
  'index.html', 'about.html', 'docs.html', 'download.html', 'copyright.html', 'support.html',
  'prosupport.html', 'whentouse.html', 'sessionintro.html', 'serverless.html', 'zeroconf.html',
  'selfcontained.html', 'transactional.html', 'onefile.html', 'mostdeployed.html',
  'features.html', 'crew.html', 'lts.html', 'codeofconduct.html',
];
/** Patch releases repeat their base release's notes: real near-duplicates within one site. */
const RELEASE_SERIES = [
  ['3_37_0', '3_37_1', '3_37_2'],
  ['3_38_0', '3_38_1', '3_38_2', '3_38_3', '3_38_4', '3_38_5'],
  ['3_40_0', '3_40_1'],
];
const RELEASE_OTHERS = ['3_36_0'];
/** Natural near-duplicates of the source itself: release series and two twin API pages. */
const NATURAL_GROUPS = [
  ...RELEASE_SERIES.map((s) => s.map((v) => `releaselog/${v}.html`)),
  ['session/sqlite3changeset_new.html', 'session/sqlite3changeset_old.html'],
];
const RESOURCES = ['sqlite.css', 'images/sqlite370_banner.gif'];
/** Pages the whole-host mirror never fetched. */
const MIRROR_MISSING = ['lts.html', 'releaselog/3_40_1.html'];

/** The replicated collection: the session extension's C interface, 47 interlinked pages. */
const COLLECTION_DIR = 'session';
const COLLECTION_ROOTS = {
  [ORIGIN]: '',
  [ALIAS]: '',
  [MIRROR]: '',
  [FULL_COPY]: 'sqlite/',
  [LAGGING_COPY]: 'mirror/sqlite-3.39/',
  [PARTIAL_COPY]: 'pub/sqlite/docs/',
};
/** Pages absent from the partial copy (every fourth page in name order, fixed here). */
const PARTIAL_MISSING = [
  'c_changeset_conflict.html', 'changeset_iter.html', 'rebaser.html',
  'sqlite3changegroup_delete.html', 'sqlite3changeset_apply.html', 'sqlite3changeset_finalize.html',
  'sqlite3changeset_next.html', 'sqlite3rebaser_configure.html', 'sqlite3session_attach.html',
  'sqlite3session_create.html', 'sqlite3session_enable.html', 'sqlite3session_table_filter.html',
];
/** The lagging copy holds older wording on these pages: [page, find, replace]. */
const LAGGING_EDITS = [
  ['sqlite3session_create.html',
    '<p>It is possible to create multiple session objects attached to a single\ndatabase handle.</p>',
    '<p>Only one session object may be attached to a database handle at a time.\nThis restriction may be relaxed in a future release.</p>'],
  ['sqlite3session_delete.html',
    'Once a session object has been deleted, the\nresults of attempting to use pSession with any other session module\nfunction are undefined.',
    'After this call pSession is a dangling pointer.'],
  ['sqlite3changeset_invert.html',
    '<p>WARNING/TODO: This function currently assumes that the input is a valid\nchangeset. If it is not, the results are undefined.\n',
    '<p>The input must be a valid changeset.\n'],
  ['intro.html',
    '<p>This version of the C-language interface reference is\nbroken down into small pages for easy viewing.  The\nsame content is also available as a\n<a href="../session.html">single large HTML file</a>\nfor those who prefer that format.</p>\n',
    ''],
  ['changegroup.html',
    '<a href="../session/sqlite3changegroup_output.html">sqlite3changegroup_output()</a></p>',
    '<a href="../session/sqlite3changegroup_output.html">sqlite3changegroup_output()</a>\n(experimental)</p>'],
];

/** Unique SQLite pages on an unrelated host (noise); spellfix1 is re-encoded to windows-1252. */
const NOTES_PAGES = ['lang_replace.html', 'lang_naming.html', 'lang_detach.html', 'dbhash.html',
  'conflict.html', 'completion.html', 'series.html', 'memstat.html', 'spellfix1.html'];
const FAQ_PAGES = ['kernel.de.html', 'redistributing.de.html', 'contributing.de.html'];

// ---------------------------------------------------------------------------------------------
// Output registry: every file written, with the source page it was made from (its key).

/** @type {Map<string, {bytes: Buffer, key: string}>} url -> file */
const files = new Map();
const url = (host, path) => `http://${host}/${path}`;

function put(host, path, bytes, key) {
  const u = url(host, path);
  if (files.has(u)) throw new Error(`written twice: ${u}`);
  files.set(u, { bytes: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes, 'utf8'), key });
}

const readSqlite = (p) => readFileSync(join(SQLITE, p));
const text = (buf) => buf.toString('utf8');

function replaceOnce(source, find, replace, where) {
  const at = source.indexOf(find);
  if (at < 0 || source.indexOf(find, at + 1) >= 0) {
    throw new Error(`edit for ${where} must match exactly once: ${JSON.stringify(find.slice(0, 60))}`);
  }
  return source.slice(0, at) + replace + source.slice(at + find.length);
}

/** Re-encodes a UTF-8 page to a single-byte charset, declaring it; fails on unmappable text. */
function encodeSingleByte(html, charset) {
  const bytes = [];
  for (const ch of html) {
    const cp = ch.codePointAt(0);
    let b = cp < 0x80 || (cp >= 0xa0 && cp <= 0xff) ? cp : WIN1252_EXTRA.get(cp);
    if (charset === 'iso-8859-1' && cp >= 0x80 && cp < 0xa0) b = undefined;
    if (b === undefined) throw new Error(`U+${cp.toString(16)} has no ${charset} byte`);
    bytes.push(b);
  }
  return Buffer.from(bytes);
}
const WIN1252_EXTRA = new Map([[0x20ac, 0x80], [0x201a, 0x82], [0x201e, 0x84], [0x2026, 0x85],
  [0x2018, 0x91], [0x2019, 0x92], [0x201c, 0x93], [0x201d, 0x94], [0x2013, 0x96], [0x2014, 0x97]]);

// ---------------------------------------------------------------------------------------------
// 1. The origin site, its www alias (byte-identical) and a whole-host mirror.

const sitePaths = [
  ...ORIGIN_PAGES,
  ...RELEASE_SERIES.flat().map((v) => `releaselog/${v}.html`),
  ...RELEASE_OTHERS.map((v) => `releaselog/${v}.html`),
  ...readdirSync(join(SQLITE, COLLECTION_DIR)).filter((f) => f.endsWith('.html')).sort()
    .map((f) => `${COLLECTION_DIR}/${f}`),
  ...RESOURCES,
];
const collectionPages = sitePaths.filter((p) => p.startsWith(`${COLLECTION_DIR}/`))
  .map((p) => p.slice(COLLECTION_DIR.length + 1));
if (collectionPages.length !== 47) throw new Error(`expected 47 session pages, found ${collectionPages.length}`);

const MIRROR_BANNER = '<body>\n<p class="mirror-notice">This is a mirror of ' +
  '<a href="http://sqlite.example.org/">sqlite.example.org</a>, refreshed nightly.</p>';

for (const path of sitePaths) {
  const bytes = readSqlite(path);
  const key = `sqlite/${path}`;
  put(ORIGIN, path, bytes, key);
  put(ALIAS, path, bytes, key);
  if (MIRROR_MISSING.includes(path)) continue;
  put(MIRROR, path, path === 'index.html' ? replaceOnce(text(bytes), '<body>', MIRROR_BANNER, 'mirror index') : bytes, key);
}
// "current" release page: a second URL for the newest release notes, as many sites keep.
put(ORIGIN, 'releaselog/current.html', readSqlite('releaselog/3_40_1.html'), 'sqlite/releaselog/3_40_1.html');
put(ALIAS, 'releaselog/current.html', readSqlite('releaselog/3_40_1.html'), 'sqlite/releaselog/3_40_1.html');
put(MIRROR, 'releaselog/current.html', readSqlite('releaselog/3_40_1.html'), 'sqlite/releaselog/3_40_1.html');

// ---------------------------------------------------------------------------------------------
// 2. The collection copied on three unrelated hosts: identical, lagging (edited), partial.

const copyIndex = (title, root) => `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>${title}</title></head>
<body>
<h1>${title}</h1>
<ul>
<li><a href="${root}${COLLECTION_DIR}/intro.html">SQLite session extension: C interface</a></li>
</ul>
</body></html>
`;
put(FULL_COPY, 'index.html', copyIndex('Documentation mirrors', '/sqlite/'), 'site/docs-index');
put(FULL_COPY, 'sqlite/sqlite.css', readSqlite('sqlite.css'), 'sqlite/sqlite.css');
put(LAGGING_COPY, 'index.html', copyIndex('Archived manuals', '/mirror/sqlite-3.39/'), 'site/archive-index');
put(PARTIAL_COPY, 'index.html', copyIndex('Public files', '/pub/sqlite/docs/'), 'site/files-index');

const lagging = new Map();
for (const [page, find, replace] of LAGGING_EDITS) {
  const before = lagging.get(page) ?? text(readSqlite(`${COLLECTION_DIR}/${page}`));
  lagging.set(page, replaceOnce(before, find, replace, `${LAGGING_COPY} ${page}`));
}
for (const page of collectionPages) {
  const path = `${COLLECTION_DIR}/${page}`;
  const bytes = readSqlite(path);
  const key = `sqlite/${path}`;
  put(FULL_COPY, COLLECTION_ROOTS[FULL_COPY] + path, bytes, key);
  put(LAGGING_COPY, COLLECTION_ROOTS[LAGGING_COPY] + path, lagging.get(page) ?? bytes, key);
  if (!PARTIAL_MISSING.includes(page)) put(PARTIAL_COPY, COLLECTION_ROOTS[PARTIAL_COPY] + path, bytes, key);
}

// ---------------------------------------------------------------------------------------------
// 3. One article republished in two other templates (near-duplicates), one page saved verbatim.

const whentouse = text(readSqlite('whentouse.html'));
const articleStart = whentouse.indexOf('<h1 align="center">Appropriate Uses For SQLite</h1>');
const articleEnd = whentouse.indexOf('<p align="center"><small><i>This page last modified');
if (articleStart < 0 || articleEnd < 0) throw new Error('whentouse.html: article bounds not found');
// Relative links would not resolve on the republishing hosts: point them at the origin.
const article = whentouse.slice(articleStart, articleEnd)
  .replace(/href="(?![a-z]+:|#)([^"]*)"/g, (_, p) => `href="http://${ORIGIN}/${p}"`);

const BLOG_EDITS = [
  ['Generally\nspeaking, any site that gets fewer than 100K hits/day should work\nfine with SQLite.',
    'In our experience, any site that gets fewer than 100K hits/day works\nfine with SQLite.'],
  ['and robots:  the "internet of things".', 'and robots: the "internet of things", as it is called.'],
  ['<p>See also: <a href="https://news.ycombinator.com/item?id=33975635">Hacker New discussion from 2022-12-13</a>.\n', ''],
];
let blogArticle = article;
for (const [find, replace] of BLOG_EDITS) blogArticle = replaceOnce(blogArticle, find, replace, 'blog article');

put(BLOG, '2023/03/appropriate-uses-for-sqlite.html', `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Appropriate Uses For SQLite - Field Notes</title>
</head>
<body>
<header><a href="/">Field Notes</a>: a weblog about small databases</header>
<nav><a href="/">Home</a> | <a href="/2023/05/sqlite-is-public-domain.html">Previous post</a></nav>
<main>
<p class="byline">Posted on 2023-03-14. Reposted from the SQLite documentation, which is in the public domain.</p>
${blogArticle}</main>
<footer>Field Notes, 2023.</footer>
</body>
</html>
`, 'sqlite/whentouse.html');
put(BLOG, '2023/05/sqlite-is-public-domain.html', readSqlite('copyright.html'), 'sqlite/copyright.html');
put(BLOG, 'index.html', `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Field Notes</title></head>
<body>
<h1>Field Notes</h1>
<ul>
<li><a href="/2023/05/sqlite-is-public-domain.html">SQLite is public domain</a> (2023-05-02)</li>
<li><a href="/2023/03/appropriate-uses-for-sqlite.html">Appropriate uses for SQLite</a> (2023-03-14)</li>
</ul>
</body></html>
`, 'site/blog-index');

put(NEWS, 'syndicated/2023-03-15-sqlite.html', `<html>
<head>
<meta http-equiv="Content-Type" content="text/html; charset=utf-8">
<title>News Digest | Appropriate Uses For SQLite</title>
</head>
<body>
<table width="100%"><tr><td><b>News Digest</b></td><td align="right">Wednesday, 15 March 2023</td></tr></table>
<hr>
${article}<hr>
<p><small>Syndicated from sqlite.example.org on 2023-03-15.</small></p>
</body>
</html>
`, 'sqlite/whentouse.html');

// ---------------------------------------------------------------------------------------------
// 4. Noise: unique pages on unrelated hosts, two of them in single-byte charsets.

for (const page of NOTES_PAGES) {
  let bytes = readSqlite(page);
  if (page === 'spellfix1.html') {
    const html = replaceOnce(text(bytes), 'content="text/html; charset=UTF-8"',
      'content="text/html; charset=windows-1252"', 'spellfix1 charset');
    bytes = encodeSingleByte(html, 'windows-1252');
  }
  put(NOTES, `sqlite-notes/${page}`, bytes, `sqlite/${page}`);
}
for (const page of FAQ_PAGES) {
  put(FAQ_HOST, `FAQ/de/${page}`, readFileSync(join(FAQ, page)), `faq/${page}`);
}
// The same German page kept by a file host as ISO-8859-1: same text, different bytes.
{
  let html = text(readFileSync(join(FAQ, 'kernel.de.html')));
  html = replaceOnce(html, '<?xml version="1.0" encoding="UTF-8"', '<?xml version="1.0" encoding="ISO-8859-1"', 'faq xml');
  html = replaceOnce(html, 'content="text/html; charset=UTF-8"', 'content="text/html; charset=ISO-8859-1"', 'faq meta');
  put(PARTIAL_COPY, 'debian/FAQ/de/kernel.de.html', encodeSingleByte(html, 'iso-8859-1'), 'faq/kernel.de.html');
}

// ---------------------------------------------------------------------------------------------
// Ground truth, computed from what was written.

const sha = (b) => createHash('sha256').update(b).digest('hex');
const urls = [...files.keys()].sort();

const byHash = new Map();
for (const u of urls) {
  const h = sha(files.get(u).bytes);
  byHash.set(h, [...(byHash.get(h) ?? []), u]);
}
const identical = [...byHash.values()].filter((g) => g.length > 1).sort((a, b) => (a[0] < b[0] ? -1 : 1));

// Near-duplicate clusters: all copies of one source page when they are not all identical, and
// the release series merged; mirrors of identical pages ride along with their cluster.
const byKey = new Map();
for (const u of urls) {
  const k = files.get(u).key;
  byKey.set(k, [...(byKey.get(k) ?? []), u]);
}
const nearDuplicates = [];
const groupedKeys = new Set();
for (const paths of NATURAL_GROUPS) {
  const keys = paths.map((p) => `sqlite/${p}`);
  keys.forEach((k) => groupedKeys.add(k));
  nearDuplicates.push(keys.flatMap((k) => byKey.get(k)).sort());
}
for (const [k, group] of byKey) {
  if (groupedKeys.has(k) || group.length < 2) continue;
  if (new Set(group.map((u) => sha(files.get(u).bytes))).size > 1 && !k.startsWith('faq/')) nearDuplicates.push(group.sort());
}
nearDuplicates.sort((a, b) => (a[0] < b[0] ? -1 : 1));

const truth = {
  description: 'What was planted in this constructed crawl; see README.md. URLs are http://<host>/<path> for sample/<host>/<path>.',
  mirrors: [[ORIGIN, ALIAS], [ORIGIN, MIRROR], [ALIAS, MIRROR]],
  // the hosts holding a copy of the collection that is nearly all of the host mirror it partially on every host holding it
  partialMirrors: Object.keys(COLLECTION_ROOTS).flatMap((a, i, hosts) => hosts.slice(i + 1).map((b) => [a, b]))
    .filter(([a, b]) => ![ORIGIN, ALIAS, MIRROR].includes(a) || ![ORIGIN, ALIAS, MIRROR].includes(b)),
  collections: [{
    hosts: Object.keys(COLLECTION_ROOTS),
    pages: collectionPages.length,
    roots: Object.fromEntries(Object.entries(COLLECTION_ROOTS).map(([h, r]) => [h, url(h, r + COLLECTION_DIR + '/')])),
    identicalCopies: [ALIAS, MIRROR, FULL_COPY],
    lagging: { [LAGGING_COPY]: LAGGING_EDITS.map(([p]) => p).filter((p, i, a) => a.indexOf(p) === i) },
    missing: { [PARTIAL_COPY]: PARTIAL_MISSING },
  }],
  nearDuplicates,
  identical,
  charsetTwins: [[url(FAQ_HOST, 'FAQ/de/kernel.de.html'), url(PARTIAL_COPY, 'debian/FAQ/de/kernel.de.html')]],
  charsets: {
    [url(NOTES, 'sqlite-notes/spellfix1.html')]: 'windows-1252',
    [url(PARTIAL_COPY, 'debian/FAQ/de/kernel.de.html')]: 'iso-8859-1',
  },
  nonEnglish: FAQ_PAGES.map((p) => url(FAQ_HOST, `FAQ/de/${p}`)).concat(url(PARTIAL_COPY, 'debian/FAQ/de/kernel.de.html')),
  unique: [BLOG, NEWS, NOTES, FAQ_HOST, FULL_COPY, LAGGING_COPY, PARTIAL_COPY].flatMap((h) =>
    urls.filter((u) => u.startsWith(url(h, '')) && byKey.get(files.get(u).key).length === 1)),
};

// ---------------------------------------------------------------------------------------------
// Write.

if (existsSync(OUT)) {
  for (const entry of readdirSync(OUT)) rmSync(join(OUT, entry), { recursive: true, force: true });
}
for (const u of urls) {
  const path = join(OUT, u.slice('http://'.length));
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, files.get(u).bytes);
}
writeFileSync(join(OUT, 'hosts.txt'), HOSTS.map(([h, ip]) => `${h} ${ip}`).join('\n') + '\n');
writeFileSync(join(OUT, 'truth.json'), JSON.stringify(truth, null, 2) + '\n');

const total = urls.reduce((s, u) => s + files.get(u).bytes.length, 0);
const html = urls.filter((u) => u.endsWith('.html')).length;
writeFileSync(join(OUT, 'README.md'), readme({ total, html, files: urls.length }));
console.log(`${urls.length} files (${html} HTML pages) on ${HOSTS.length} hosts, ${total} bytes`);

function readme({ total, html, files: n }) {
  const kb = (total / 1024).toFixed(0);
  const list = (xs) => xs.map((x) => `\`${x}\``).join(', ');
  return `# Sample crawl

A small crawl laid out as \`wget --mirror\` writes it (\`sample/<host>/<path>\` is
\`http://<host>/<path>\`; directory URLs end in \`index.html\`), for trying \`resemble\` on:

    npx web-resemble dups sample/
    npx web-resemble collections sample/
    npx web-resemble mirrors sample/ --ips sample/hosts.txt

${n} files (${html} HTML pages, the rest stylesheets and one GIF image per SQLite site host),\n${HOSTS.length} hosts, ${kb} KiB.

**It is constructed**: the pages are real, but the hosts are invented (reserved
\`example.*\` and \`.test\` names, documentation IP ranges) and the copies, edits and
re-encodings below were made by \`scripts/make-sample.mjs\`, which regenerates this folder
byte for byte from the two Debian packages. \`truth.json\` lists what was planted.

## Sources and licences

- **SQLite documentation**, Debian package \`sqlite3-doc\` 3.40.1-2+deb12u2 (upstream
  https://www.sqlite.org/, SQLite 3.40.1). Licence: **public domain** ("The author disclaims
  copyright to this source code", see \`sqlite.example.org/copyright.html\`). The Debian packaging
  is GPL-2+ and none of it is included.
- **Debian FAQ, German translation**, Debian package \`debian-faq-de\` 11.1 (upstream: the
  Debian Documentation Project's \`debian-faq\` source package). Licence notice, kept as required:

  > Copyright (C) 1996-2003  Software in the Public Interest
  >
  > Permission is granted to make and distribute verbatim copies of this document provided the
  > copyright notice and this permission notice are preserved on all copies.
  >
  > Permission is granted to copy and distribute modified versions of this document under the
  > conditions for verbatim copying, provided that the entire resulting derived work is
  > distributed under the terms of a permission notice identical to this one.
  >
  > Permission is granted to copy and distribute translations of this document into another
  > language, under the above conditions for modified versions, except that this permission
  > notice may be included in translations approved by the Free Software Foundation instead of
  > in the original English.

  The only modification is the re-encoding of one page described below.
- The four short \`index.html\` pages of \`${FULL_COPY}\`, \`${LAGGING_COPY}\`, \`${PARTIAL_COPY}\` and
  \`${BLOG}\`, and the blog and news page templates around the republished article, were written
  for this sample (same licence as this project).

## Hosts

| host | IP (\`hosts.txt\`) | what it holds |
|---|---|---|
| \`${ORIGIN}\` | 192.0.2.10 | the "origin": ${ORIGIN_PAGES.length} top-level SQLite pages, ${RELEASE_SERIES.flat().length + RELEASE_OTHERS.length} release notes (+ \`releaselog/current.html\`, a byte copy of 3.40.1), the 47-page \`session/\` C interface, \`sqlite.css\`, the banner GIF |
| \`${ALIAS}\` | 192.0.2.10 | alias of the origin: every file byte-identical |
| \`${MIRROR}\` | 192.0.2.11 | whole-host mirror of the origin, missing ${list(MIRROR_MISSING)}; its \`index.html\` carries a one-line mirror notice |
| \`${FULL_COPY}\` | 198.51.100.20 | the \`session/\` collection under \`/sqlite/session/\`, all 47 pages byte-identical |
| \`${LAGGING_COPY}\` | 198.51.100.77 | the collection under \`/mirror/sqlite-3.39/session/\`, ${LAGGING_EDITS.length} pages with older wording |
| \`${PARTIAL_COPY}\` | 203.0.113.5 | the collection under \`/pub/sqlite/docs/session/\` missing ${PARTIAL_MISSING.length} pages; one German FAQ page in ISO-8859-1 |
| \`${BLOG}\` | 203.0.113.40 | "Appropriate Uses For SQLite" reposted in a blog template with 3 edits; \`copyright.html\` saved verbatim |
| \`${NEWS}\` | 203.0.113.90 | the same article in a news-digest template, unedited |
| \`${NOTES}\` | 2001:db8::25 | ${NOTES_PAGES.length} SQLite pages found nowhere else (noise); \`spellfix1.html\` re-encoded as windows-1252 |
| \`${FAQ_HOST}\` | 198.51.100.140 | ${FAQ_PAGES.length} pages of the German Debian FAQ (non-English noise) |

## What was planted

- **Mirrored hosts**: \`${ORIGIN}\` = \`${ALIAS}\` (identical) ≈ \`${MIRROR}\`.
- **Replicated collection**: \`session/\` (47 pages linked to one another through relative
  links \`../session/<page>.html\`, which resolve inside each copy) on six hosts: the three
  above, an identical copy (\`${FULL_COPY}\`), a lagging copy (\`${LAGGING_COPY}\`: edited
  ${list(LAGGING_EDITS.map(([p]) => p))}) and a partial copy (\`${PARTIAL_COPY}\`: without
  ${list(PARTIAL_MISSING)}). Links from the collection to the rest of the SQLite site are kept
  as they were, so on the copy hosts they point to pages that were not crawled.
- **Near-duplicates**, natural: the release notes of a patch release repeat those of its base
  release (${RELEASE_SERIES.map((s) => s.join(', ')).join('; ')}), and the pages of
  \`sqlite3changeset_new()\` and \`sqlite3changeset_old()\` differ in a few words.
  Planted: \`whentouse.html\` reposted by \`${BLOG}\` (new template, a date, two sentences
  reworded, one paragraph dropped) and \`${NEWS}\` (another template, a date); the mirror's
  \`index.html\` (one added line); the ${LAGGING_EDITS.length} edited pages of the lagging copy.
- **Exact duplicates** beyond the mirrors: \`releaselog/current.html\` = \`releaselog/3_40_1.html\`;
  \`${BLOG}/2023/05/sqlite-is-public-domain.html\` = \`${ORIGIN}/copyright.html\`.
- **Charsets and language**: \`${NOTES}/sqlite-notes/spellfix1.html\` is windows-1252 and
  \`${PARTIAL_COPY}/debian/FAQ/de/kernel.de.html\` is ISO-8859-1 (meta charset and XML prolog changed
  accordingly); the latter has the same text as the UTF-8 \`${FAQ_HOST}/FAQ/de/kernel.de.html\`.

## truth.json

- \`mirrors\`: host pairs that mirror each other whole (\`resemble mirrors\`: \`extent\` full).
- \`partialMirrors\`: host pairs where one holds a copy of the \`session/\` collection that is
  nearly all of that host (\`docs.example.com\`, \`archive.example.com\`, \`files.test\`), with every
  other host holding it: \`resemble mirrors\` calls them mirrors with \`extent\` partial (of the part
  they hold); \`resemble collections\` tells those copies apart.
- \`collections\`: the replicated collection, its hosts, page count, the URL of its folder on
  each host, which copies are identical, which pages were edited (\`lagging\`) or left out (\`missing\`).
- \`nearDuplicates\`: clusters of URLs a near-duplicate finder should group, each with all its
  copies (a cluster holds byte-identical members too, but not only those).
- \`identical\`: every group of two or more byte-identical files (mirror copies included).
- \`charsetTwins\`, \`charsets\`, \`nonEnglish\`: the re-encoded and German pages.
- \`unique\`: pages off the SQLite site hosts that have no copy anywhere (noise).

The SQLite pages share a 4 KB header (navigation and an inline script). With the content of
\`<script>\` and \`<style>\` dropped, no pair of pages outside the clusters above reaches a
resemblance of 0.5 on word 8-shingles; with script text kept, short pages would resemble one
another through that header alone.
`;
}
