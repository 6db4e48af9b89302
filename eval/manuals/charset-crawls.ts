/**
 * How often the charset sniffer finds the charset of the undeclared legacy pages of the evaluation
 * crawls that have them: the fifth (gtk-doc-legacy-charsets.ts: the handbook in traditional
 * Chinese, Korean and Russian mirrored in Big5, EUC-KR and KOI8-R) and the seventh
 * (erlang-vim-mail-charsets.ts: the Developer's Reference in Japanese and Russian in Shift_JIS,
 * ISO-2022-JP and KOI8-R, the handbook in Turkish, Czech, Polish and Vietnamese in ISO-8859-9,
 * ISO-8859-2, windows-1250 and windows-1258). Each crawl's undeclared copies are laid out exactly
 * as its build lays them out (layout.ts), from the same pinned packages, without building the rest
 * of the crawl; each page is sniffed (the reader does so for a page with no BOM, header or meta),
 * and is right when the sniffed charset decodes it to the text of its charset.
 *
 *   node --import tsx eval/manuals/charset-crawls.ts [--sources DIR] [--before REV]
 *
 * Packages are downloaded once into the sources folder (default $RESEMBLE_DATA/sources). --before
 * REV adds a column: the sniffer as committed at REV. Prints one row per copy: pages right of all.
 */
import { resolve, join } from 'node:path';
import { parseArgs } from 'node:util';
import { sniffCharset } from '../../src/io/charset-sniff.js';
import { SEVENTH_COPIES, SEVENTH_SOURCES, SEVENTH_WORKS } from './erlang-vim-mail-charsets.js';
import { FIFTH_COPIES, FIFTH_SOURCES, FIFTH_WORKS } from './gtk-doc-legacy-charsets.js';
import { layOut } from './layout.js';
import type { CopySpec, Work } from './plan.js';
import { snifferAt, type Sniff } from './sniffer-at.js';
import { fetchSources, packageKey, type Source } from './sources.js';

const CRAWLS: Array<[name: string, sources: Source[], works: Work[], copies: CopySpec[]]> = [
  ['fifth', FIFTH_SOURCES, FIFTH_WORKS, FIFTH_COPIES],
  ['seventh', SEVENTH_SOURCES, SEVENTH_WORKS, SEVENTH_COPIES],
];

const { values } = parseArgs({ options: { sources: { type: 'string' }, before: { type: 'string' } } });
const data = process.env.RESEMBLE_DATA;
const cache = values.sources ?? (data ? join(data, 'sources') : undefined);
if (!cache) {
  console.error('set RESEMBLE_DATA (a folder outside the repository) or give --sources DIR');
  process.exit(2);
}
const before: Sniff | undefined = values.before ? await snifferAt(values.before) : undefined;
const now: Sniff = sniffCharset;

console.log(`${'crawl'.padEnd(8)} ${'copy'.padEnd(22)} ${'charset'.padEnd(13)}${before ? values.before!.padStart(10) : ''}${'now'.padStart(10)}  misread as (now)`);
const total = { pages: 0, before: 0, now: 0 };
for (const [name, sources, works, all] of CRAWLS) {
  const copies = all.filter((c) => c.undeclared);
  const used = sources.filter((s) => copies.some((c) => c.source === s.id));
  const fetched = fetchSources(resolve(cache), (l) => console.error(l), used);
  const pages = layOut(works, copies, used, (s) => fetched.get(packageKey(s))!.dir);
  for (const c of copies) {
    const mine = pages.filter((p) => p.copy === c.id);
    const counts = { before: 0, now: 0 };
    const wrong = new Map<string, number>();
    for (const p of mine) {
      const truth = new TextDecoder(p.charset).decode(p.bytes);
      const right = (got: string) => got === p.charset || new TextDecoder(got).decode(p.bytes) === truth;
      const got = now(p.bytes);
      if (right(got)) counts.now++;
      else wrong.set(got, (wrong.get(got) ?? 0) + 1);
      if (before && right(before(p.bytes))) counts.before++;
    }
    total.pages += mine.length; total.before += counts.before; total.now += counts.now;
    const cell = (n: number) => `${n}/${mine.length}`.padStart(10);
    const misread = [...wrong].sort((a, b) => b[1] - a[1]).map(([cs, n]) => `${cs} ${n}`).join(', ');
    console.log(`${name.padEnd(8)} ${c.id.padEnd(22)} ${new TextDecoder(c.charset!).encoding.padEnd(13)}${before ? cell(counts.before) : ''}${cell(counts.now)}  ${misread}`);
  }
}
const cell = (n: number) => `${n}/${total.pages}`.padStart(10);
console.log(`${'all'.padEnd(8)} ${''.padEnd(22)} ${''.padEnd(13)}${before ? cell(total.before) : ''}${cell(total.now)}`);
