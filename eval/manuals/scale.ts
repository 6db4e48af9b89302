/**
 * The scale crawl: a larger JSONL crawl for benchmarking the streaming pipeline, made from the
 * realistic crawl's pages. Every distinct page (by text) of crawl.jsonl is written `--copies`
 * times (default 8): copy 0 as it is, copies 1.. on hosts `c<k>.<host>` with `--fraction` (default
 * 0.02) of the words of their text replaced by random words of the same length, from a seeded generator
 * (`--seed`, default 1), so the same input and flags give the same file byte for byte.
 *
 *   node --import tsx eval/manuals/scale.ts [--data DIR] [--out FILE] [--copies 8] [--fraction 0.02]
 *        [--pages N] [--seed 1] [--grow K]
 *
 * --data is the folder build.ts wrote (default $RESEMBLE_DATA/realistic); --out defaults to
 * scale.jsonl there; --pages keeps N distinct pages (a deterministic sample by URL hash) instead
 * of all. --grow K (default 1) makes every page about K times larger, the same pages and records:
 * its body's content written K times over (for the check that peak memory does not follow page
 * size). A manifest (flags, counts, bytes, SHA-256) is written beside the output as .json.
 */
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, openSync, writeFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { mulberry32 } from '../../src/random.js';

// A word: one Han, kana or Hangul character (scripts written without spaces), or a run of other letters and digits.
const WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[\p{L}\p{N}]+/gu;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * Takes HTML, a fraction and a generator; returns the HTML with that fraction of the words of its
 * text (outside tags, scripts and styles) replaced by random lowercase words of the same length,
 * and the number replaced.
 */
export function replaceWords(html: string, fraction: number, random: () => number): { html: string; replaced: number; words: number } {
  let replaced = 0, words = 0;
  // Split into markup (tags, comments, script and style elements, character references) and text.
  const parts = html.split(/(<script\b[\s\S]*?<\/script\s*>|<style\b[\s\S]*?<\/style\s*>|<!--[\s\S]*?-->|<[^>]*>|&#?[A-Za-z0-9]+;)/i);
  for (let i = 0; i < parts.length; i += 2) {
    parts[i] = parts[i].replace(WORD, (w) => {
      words++;
      if (random() >= fraction) return w;
      replaced++;
      let out = '';
      for (let k = 0; k < Math.max(1, [...w].length); k++) out += LETTERS[Math.floor(random() * 26)];
      return out;
    });
  }
  return { html: parts.join(''), replaced, words };
}

/** Takes HTML and K; returns it with its body's content (the whole page when it has no body) written K times. */
export function grow(html: string, k: number): string {
  if (k === 1) return html;
  const open = /<body\b[^>]*>/i.exec(html), close = html.search(/<\/body\s*>/i);
  if (!open || close < open.index) return html.repeat(k);
  const from = open.index + open[0].length;
  return html.slice(0, from) + html.slice(from, close).repeat(k) + html.slice(close);
}

async function main() {
  const { values } = parseArgs({ options: {
    data: { type: 'string' }, out: { type: 'string' }, copies: { type: 'string' }, fraction: { type: 'string' },
    pages: { type: 'string' }, seed: { type: 'string' }, grow: { type: 'string' } } });
  const data = values.data ?? (process.env.RESEMBLE_DATA ? join(process.env.RESEMBLE_DATA, 'realistic') : undefined);
  if (!data) {
    console.error('give --data DIR (the folder build.ts wrote) or set RESEMBLE_DATA');
    process.exit(2);
  }
  const copies = Number(values.copies ?? 8), fraction = Number(values.fraction ?? 0.02), seed = Number(values.seed ?? 1);
  const limit = values.pages === undefined ? Infinity : Number(values.pages);
  if (!Number.isInteger(copies) || copies < 1) throw new Error(`--copies must be an integer ≥ 1, got ${values.copies}`);
  if (!(fraction >= 0 && fraction <= 1)) throw new Error(`--fraction must be in [0, 1], got ${values.fraction}`);
  if (!Number.isInteger(seed)) throw new Error(`--seed must be an integer, got ${values.seed}`);
  if (!(limit >= 1)) throw new Error(`--pages must be ≥ 1, got ${values.pages}`);
  const factor = Number(values.grow ?? 1);
  if (!Number.isInteger(factor) || factor < 1) throw new Error(`--grow must be an integer ≥ 1, got ${values.grow}`);
  const out = resolve(values.out ?? join(data, 'scale.jsonl'));

  // Distinct pages by text, in crawl order; with --pages, the N of smallest URL hash.
  const seen = new Set<string>();
  let pages: Array<{ url: string; html: string; rank: string }> = [];
  const lines = createInterface({ input: createReadStream(join(resolve(data), 'crawl.jsonl')), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line) continue;
    const { url, html } = JSON.parse(line) as { url: string; html: string };
    const h = createHash('sha256').update(html).digest('hex');
    if (seen.has(h)) continue;
    seen.add(h);
    pages.push({ url, html, rank: createHash('sha256').update(url).digest('hex') });
  }
  if (pages.length > limit) {
    const keep = new Set([...pages].sort((a, b) => (a.rank < b.rank ? -1 : 1)).slice(0, limit).map((p) => p.url));
    pages = pages.filter((p) => keep.has(p.url));
  }
  const fd = openSync(out, 'w');
  const digest = createHash('sha256');
  let records = 0, bytes = 0, replaced = 0, words = 0;
  try {
    for (let k = 0; k < copies; k++) {
      pages.forEach((p, i) => {
        const u = new URL(p.url);
        let html = grow(p.html, factor);
        if (k > 0) {
          u.host = `c${k}.${u.host}`;
          const r = replaceWords(html, fraction, mulberry32((seed * 1_000_003 + k * 65_537 + i) >>> 0));
          html = r.html;
          replaced += r.replaced;
          words += r.words;
        }
        const line = JSON.stringify({ url: u.href, html }) + '\n';
        const buf = Buffer.from(line);
        writeSync(fd, buf);
        digest.update(buf);
        records++;
        bytes += buf.length;
      });
    }
  } finally {
    closeSync(fd);
  }
  const manifest = { copies, fraction, seed, grow: factor, distinctPages: pages.length, records, bytes, wordsInChangedCopies: words, wordsReplaced: replaced, sha256: digest.digest('hex') };
  writeFileSync(out.replace(/\.jsonl$/, '') + '.json', JSON.stringify(manifest, null, 1) + '\n');
  console.log(JSON.stringify(manifest));
}

if (process.argv[1]?.endsWith('scale.ts')) await main();
