/**
 * Writes the kernel benchmark's corpus: the distinct HTML pages of a crawl folder, each once.
 *
 *   node --import tsx bench/kernel-corpus.ts [--crawl DIR] [--out DIR] [--max-bytes N]
 *
 * Defaults: --crawl $RESEMBLE_DATA/realistic/crawl, --out $RESEMBLE_DATA/kernel-corpus,
 * --max-bytes 131072. Pages are taken in sorted path order; a page whose bytes equal an earlier
 * page's is left out (a mirror's copy would be sketched twice at no cost to a cache), and so is a
 * page over --max-bytes (the few multi-megabyte single-page manuals would make it a large-page
 * corpus: this one measures what each page of a crawl costs). On the realistic crawl: 2,751 pages,
 * 85.0 MiB. The files are written as page-NNNNN.html, so the corpus reads the same everywhere.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({ options: { crawl: { type: 'string' }, out: { type: 'string' }, 'max-bytes': { type: 'string' } } });
const data = process.env.RESEMBLE_DATA;
if ((!args.crawl || !args.out) && !data) throw new Error('set RESEMBLE_DATA, or pass --crawl and --out');
const crawl = args.crawl ?? join(data!, 'realistic', 'crawl');
const out = args.out ?? join(data!, 'kernel-corpus');
const maxBytes = Number(args['max-bytes'] ?? 131072);
if (!Number.isInteger(maxBytes) || maxBytes < 1) throw new Error(`--max-bytes: expected a positive integer, got ${args['max-bytes']}`);

function walk(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) found.push(...walk(p));
    else if (/\.html?$/i.test(name)) found.push(p);
  }
  return found;
}

const seen = new Set<string>();
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
let pages = 0, bytes = 0;
for (const path of walk(crawl)) {
  const b = readFileSync(path);
  if (b.length > maxBytes) continue;
  const digest = createHash('sha256').update(b).digest('hex');
  if (seen.has(digest)) continue;
  seen.add(digest);
  writeFileSync(join(out, `page-${String(pages).padStart(5, '0')}.html`), b);
  pages++;
  bytes += b.length;
}
process.stdout.write(`${out}: ${pages} pages, ${(bytes / 2 ** 20).toFixed(1)} MiB\n`);
