/**
 * A seventh realistic crawl, of generators none of the others has: the Erlang/OTP reference
 * (erl_docgen: a sidebar listing the application's modules and functions on every page) in two
 * builds side by side, one folder per build and application; Vim's help as HTML (vim2html: few,
 * very large pages); the Exim specification (xfpt: one page per chapter); Postfix's hand-written
 * documentation; and Debian's Developer's Reference (Sphinx) in English with its Japanese and
 * Russian translations in folders under the English one, each translation mirrored in a legacy
 * charset with no declaration (Shift_JIS, ISO-2022-JP, KOI8-R); and the Debian Administrator's
 * Handbook in Turkish, Czech and Polish, half of each mirrored with no declaration (in ISO-8859-9,
 * ISO-8859-2 and windows-1250), and in Vietnamese, mirrored whole in windows-1258 (its tone marks
 * combining characters) with no declaration. Mirrors shift prefixes, copy part of a manual, make links absolute;
 * single pages are copied onto a blog; no host root page is crawled.
 *
 *   node --max-old-space-size=8192 --import tsx eval/manuals/erlang-vim-mail-charsets.ts [--sources DIR] [--out DIR]
 *
 * Same layout and truth files as build.ts (default output $RESEMBLE_DATA/seventh).
 */
import { buildCrawl } from './build.js';
import type { CopySpec, Work } from './plan.js';
import type { Source } from './sources.js';

const ERLANG = (build: string) => `1:25.2.3+dfsg-1+deb12u${build}`;
const erlangLib = (lib: string, dir: string, build: string): Source => ({
  id: `${lib}-u${build}`, kind: 'deb', package: 'erlang-doc', version: ERLANG(build), html: `usr/share/doc/erlang-doc/lib/${dir}/doc/html`,
  licence: 'Apache-2.0', upstream: `Erlang/OTP 25.2.3 ${lib} reference (erl_docgen), Debian build deb12u${build}`,
});

export const SEVENTH_SOURCES: Source[] = [
  erlangLib('stdlib', 'stdlib-4.2', '1'), erlangLib('stdlib', 'stdlib-4.2', '4'),
  erlangLib('kernel', 'kernel-8.5.3', '1'), erlangLib('kernel', 'kernel-8.5.3', '4'),
  { id: 'vim-9.0', kind: 'deb', package: 'vim-doc', version: '2:9.0.1378-2+deb12u2', html: 'usr/share/doc/vim/html',
    licence: 'Vim licence (GPL-compatible charityware)', upstream: 'Vim 9.0 help files as HTML (vim2html)' },
  { id: 'exim-4.96', kind: 'deb', package: 'exim4-doc-html', version: '4.96-1', html: 'usr/share/doc/exim4-doc-html/spec_html',
    licence: 'GPL-2.0-or-later', upstream: 'Exim 4.96 specification (xfpt)' },
  { id: 'postfix-3.7', kind: 'deb', package: 'postfix-doc', version: '3.7.11-0+deb12u1', html: 'usr/share/doc/postfix/html',
    licence: 'IPL-1.0 or EPL-2.0', upstream: 'Postfix 3.7 documentation (hand-written HTML)' },
  { id: 'devref-en', kind: 'deb', package: 'developers-reference', version: '12.18', html: 'usr/share/developers-reference', exclude: ['ja/', 'ru/'],
    licence: 'MIT', upstream: 'Debian Developer\'s Reference 12.18, English (Sphinx)' },
  { id: 'devref-ja', kind: 'deb', package: 'developers-reference-ja', version: '12.18', html: 'usr/share/developers-reference/ja',
    licence: 'MIT', upstream: 'Debian Developer\'s Reference 12.18, Japanese (Sphinx)' },
  { id: 'handbook-tr', kind: 'deb', package: 'debian-handbook', version: '11.20220922', html: 'usr/share/doc/debian-handbook/html/tr-TR',
    licence: 'GPL-2.0+ or CC-BY-SA-3.0', upstream: 'The Debian Administrator\'s Handbook, Debian 11, Turkish (Publican/DocBook)' },
  { id: 'handbook-cs', kind: 'deb', package: 'debian-handbook', version: '11.20220922', html: 'usr/share/doc/debian-handbook/html/cs-CZ',
    licence: 'GPL-2.0+ or CC-BY-SA-3.0', upstream: 'The Debian Administrator\'s Handbook, Debian 11, Czech (Publican/DocBook)' },
  { id: 'handbook-pl', kind: 'deb', package: 'debian-handbook', version: '11.20220922', html: 'usr/share/doc/debian-handbook/html/pl-PL',
    licence: 'GPL-2.0+ or CC-BY-SA-3.0', upstream: 'The Debian Administrator\'s Handbook, Debian 11, Polish (Publican/DocBook)' },
  { id: 'handbook-vi', kind: 'deb', package: 'debian-handbook', version: '11.20220922', html: 'usr/share/doc/debian-handbook/html/vi-VN',
    licence: 'GPL-2.0+ or CC-BY-SA-3.0', upstream: 'The Debian Administrator\'s Handbook, Debian 11, Vietnamese (Publican/DocBook)' },
  { id: 'devref-ru', kind: 'deb', package: 'developers-reference-ru', version: '12.18', html: 'usr/share/developers-reference/ru',
    licence: 'MIT', upstream: 'Debian Developer\'s Reference 12.18, Russian (Sphinx)' },
];

export const SEVENTH_WORKS: Work[] = [
  { id: 'erlang-stdlib', title: 'Erlang/OTP stdlib reference (erl_docgen)', releases: {
    'stdlib-u1': { release: '25.2.3+dfsg-1+deb12u1', line: '25' }, 'stdlib-u4': { release: '25.2.3+dfsg-1+deb12u4', line: '25' } } },
  { id: 'erlang-kernel', title: 'Erlang/OTP kernel reference (erl_docgen)', releases: {
    'kernel-u1': { release: '25.2.3+dfsg-1+deb12u1', line: '25' }, 'kernel-u4': { release: '25.2.3+dfsg-1+deb12u4', line: '25' } } },
  { id: 'vim', title: 'Vim help (vim2html)', releases: { 'vim-9.0': { release: '9.0.1378', line: '9.0' } } },
  { id: 'exim', title: 'Exim specification (xfpt)', releases: { 'exim-4.96': { release: '4.96', line: '4' } } },
  { id: 'postfix', title: 'Postfix documentation', releases: { 'postfix-3.7': { release: '3.7.11', line: '3.7' } } },
  // translations are different works: none mirrors another
  { id: 'devref-en', title: 'Developer\'s Reference, English (Sphinx)', releases: { 'devref-en': { release: '12.18', line: '12' } } },
  { id: 'devref-ja', title: 'Developer\'s Reference, Japanese (Sphinx)', releases: { 'devref-ja': { release: '12.18', line: '12' } } },
  { id: 'devref-ru', title: 'Developer\'s Reference, Russian (Sphinx)', releases: { 'devref-ru': { release: '12.18', line: '12' } } },
  { id: 'handbook-tr', title: 'Debian Administrator\'s Handbook, Turkish (Publican/DocBook)', releases: { 'handbook-tr': { release: '11.20220922', line: '11' } } },
  { id: 'handbook-cs', title: 'Debian Administrator\'s Handbook, Czech (Publican/DocBook)', releases: { 'handbook-cs': { release: '11.20220922', line: '11' } } },
  { id: 'handbook-pl', title: 'Debian Administrator\'s Handbook, Polish (Publican/DocBook)', releases: { 'handbook-pl': { release: '11.20220922', line: '11' } } },
  { id: 'handbook-vi', title: 'Debian Administrator\'s Handbook, Vietnamese (Publican/DocBook)', releases: { 'handbook-vi': { release: '11.20220922', line: '11' } } },
];

const part = (fraction: number, salt: string) => ({ fraction, salt });
const ERL = 'www.erlang.example.org';
const DEB = 'www.debian.example.org';

export const SEVENTH_COPIES: CopySpec[] = [
  // Erlang: two builds side by side, one folder per build and application, as erlang.org keeps releases.
  { id: 'stdlib-u4-origin', work: 'erlang-stdlib', source: 'stdlib-u4', host: ERL, prefix: '/doc/25.2.3-u4/lib/stdlib/', select: { all: true }, note: 'origin' },
  { id: 'kernel-u4-origin', work: 'erlang-kernel', source: 'kernel-u4', host: ERL, prefix: '/doc/25.2.3-u4/lib/kernel/', select: { all: true }, note: 'origin' },
  { id: 'stdlib-u1-beside', work: 'erlang-stdlib', source: 'stdlib-u1', host: ERL, prefix: '/doc/25.2.3-u1/lib/stdlib/', select: { all: true },
    note: 'previous build, beside the current one' },
  { id: 'kernel-u1-beside', work: 'erlang-kernel', source: 'kernel-u1', host: ERL, prefix: '/doc/25.2.3-u1/lib/kernel/', select: part(0.6, 'seven-kernel'),
    note: 'previous build, beside the current one, part of it' },
  { id: 'stdlib-u4-mirror', work: 'erlang-stdlib', source: 'stdlib-u4', host: 'erlang.mirror.example.net', prefix: '/otp/stdlib/', select: { all: true },
    absoluteLinksTo: 'stdlib-u4-mirror', note: 'mirror under another prefix, links made absolute' },
  { id: 'kernel-u4-partial', work: 'erlang-kernel', source: 'kernel-u4', host: 'erlang.mirror.example.net', prefix: '/otp/kernel/', select: part(0.5, 'seven-kernel-m'),
    note: 'partial mirror under another prefix' },
  // Vim: a few very large pages; a partial mirror.
  { id: 'vim-origin', work: 'vim', source: 'vim-9.0', host: 'vimhelp.example.org', prefix: '/vim90/', select: { all: true }, note: 'origin' },
  { id: 'vim-partial', work: 'vim', source: 'vim-9.0', host: 'ftp.example.de', prefix: '/pub/editors/vim/doc/', select: part(0.5, 'seven-vim'),
    note: 'partial mirror under another prefix' },
  // Exim: an exact mirror under another prefix.
  { id: 'exim-origin', work: 'exim', source: 'exim-4.96', host: 'exim.example.org', prefix: '/exim-html-4.96/doc/html/spec_html/', select: { all: true }, note: 'origin' },
  { id: 'exim-mirror', work: 'exim', source: 'exim-4.96', host: 'exim.mirror.example.jp', prefix: '/exim/spec/', select: { all: true },
    note: 'exact mirror under another prefix' },
  // Postfix: a partial mirror with its links made absolute.
  { id: 'postfix-origin', work: 'postfix', source: 'postfix-3.7', host: 'www.postfix.example.org', prefix: '/documentation/', select: { all: true }, note: 'origin' },
  { id: 'postfix-partial', work: 'postfix', source: 'postfix-3.7', host: 'postfix.mirror.example.com', prefix: '/postfix-html/', select: part(0.4, 'seven-postfix'),
    absoluteLinksTo: 'postfix-partial', note: 'partial mirror, links made absolute' },
  // Developer's Reference: the translations in folders under the English manual; each translation
  // mirrored in a legacy charset that its server declared in a header only.
  { id: 'devref-en-origin', work: 'devref-en', source: 'devref-en', host: DEB, prefix: '/doc/manuals/developers-reference/', select: { all: true }, note: 'origin' },
  { id: 'devref-ja-origin', work: 'devref-ja', source: 'devref-ja', host: DEB, prefix: '/doc/manuals/developers-reference/ja/', select: { all: true },
    note: 'origin, in a folder under the English manual' },
  { id: 'devref-ru-origin', work: 'devref-ru', source: 'devref-ru', host: DEB, prefix: '/doc/manuals/developers-reference/ru/', select: { all: true },
    note: 'origin, in a folder under the English manual' },
  { id: 'devref-ja-sjis', work: 'devref-ja', source: 'devref-ja', host: 'debian.example.jp', prefix: '/devref/', select: { all: true }, charset: 'Shift_JIS', undeclared: true,
    note: 'mirror re-encoded in Shift_JIS, undeclared' },
  { id: 'devref-ja-jis', work: 'devref-ja', source: 'devref-ja', host: 'www.example.ne.jp', prefix: '/~debian/devref/', select: part(0.6, 'seven-jis'), charset: 'ISO-2022-JP', undeclared: true,
    note: 'partial mirror re-encoded in ISO-2022-JP (7-bit), undeclared' },
  { id: 'devref-ru-koi8', work: 'devref-ru', source: 'devref-ru', host: 'debian.example.ru', prefix: '/docs/devref/', select: { all: true }, charset: 'KOI8-R', undeclared: true,
    note: 'mirror re-encoded in KOI8-R, undeclared' },
  // The handbook in Turkish, and half of it mirrored in ISO-8859-9 with no declaration.
  { id: 'handbook-tr-origin', work: 'handbook-tr', source: 'handbook-tr', host: DEB, prefix: '/doc/manuals/debian-handbook/tr-TR/', select: { all: true }, note: 'origin' },
  { id: 'handbook-tr-latin5', work: 'handbook-tr', source: 'handbook-tr', host: 'belgeler.example.com.tr', prefix: '/debian/el-kitabi/', select: part(0.5, 'seven-tr'),
    charset: 'ISO-8859-9', undeclared: true, note: 'partial mirror re-encoded in ISO-8859-9, undeclared' },
  // The handbook in Czech and in Polish, half of each mirrored in a Central European charset with no declaration.
  { id: 'handbook-cs-origin', work: 'handbook-cs', source: 'handbook-cs', host: DEB, prefix: '/doc/manuals/debian-handbook/cs-CZ/', select: { all: true }, note: 'origin' },
  { id: 'handbook-cs-latin2', work: 'handbook-cs', source: 'handbook-cs', host: 'dokumentace.example.cz', prefix: '/debian/prirucka/', select: part(0.5, 'seven-cs'),
    charset: 'ISO-8859-2', undeclared: true, note: 'partial mirror re-encoded in ISO-8859-2, undeclared' },
  { id: 'handbook-pl-origin', work: 'handbook-pl', source: 'handbook-pl', host: DEB, prefix: '/doc/manuals/debian-handbook/pl-PL/', select: { all: true }, note: 'origin' },
  { id: 'handbook-pl-1250', work: 'handbook-pl', source: 'handbook-pl', host: 'dokumentacja.example.pl', prefix: '/debian/podrecznik/', select: part(0.5, 'seven-pl'),
    charset: 'windows-1250', undeclared: true, note: 'partial mirror re-encoded in windows-1250, undeclared' },
  // The handbook in Vietnamese, mirrored whole in windows-1258 with no declaration.
  { id: 'handbook-vi-origin', work: 'handbook-vi', source: 'handbook-vi', host: DEB, prefix: '/doc/manuals/debian-handbook/vi-VN/', select: { all: true }, note: 'origin' },
  { id: 'handbook-vi-1258', work: 'handbook-vi', source: 'handbook-vi', host: 'tailieu.example.vn', prefix: '/debian/so-tay/', select: { all: true },
    charset: 'windows-1258', undeclared: true, note: 'mirror re-encoded in windows-1258, undeclared' },
  // Single pages copied onto a blog with their names.
  { id: 'single-vim', work: 'vim', source: 'vim-9.0', host: 'blog.example.net', prefix: '/vim/', select: { single: [['quickref.html', 'quickref.html']] },
    note: 'single page copied with its name' },
  { id: 'single-stdlib', work: 'erlang-stdlib', source: 'stdlib-u4', host: 'blog.example.net', prefix: '/erlang/', select: { single: [['lists.html', 'lists.html']] },
    absoluteLinksTo: 'stdlib-u4-origin', note: 'single page copied, links made absolute to the origin' },
];

if (process.argv[1]?.endsWith('erlang-vim-mail-charsets.ts')) await buildCrawl('seventh', SEVENTH_SOURCES, SEVENTH_WORKS, SEVENTH_COPIES);
