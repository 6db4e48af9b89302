// Content mode's rule across templates (docs/near-duplicates.md, "Pairs across templates") by
// template share, on generated crawls: one templated site of 20 pages (about 304 words of template
// around 60-240 of their own) and near copies of 10 of them (every 60th word spelt backwards), each
// on a host of its own. Prints, per share, the copies clustered with their original and the
// clusters holding two originals or more, with `dups` defaults in content 'main' and 'page'.
//   node --import tsx eval/templated/across-shares.ts
import { init } from '../../src/index.js';
import { findNearDuplicates } from '../../src/node.js';
import { Rng } from '../../test/helpers/random.js';

await init();
const rng = new Rng(7);
const syllables = ['ka', 'lo', 'mi', 'ne', 'tur', 'vas', 'pel', 'dor', 'quin', 'sa', 'ber', 'fu', 'gan', 'hol', 'jir'];
const words = (n: number) => Array.from({ length: n }, () => Array.from({ length: 2 + (rng.nextU32() % 3) }, () => syllables[rng.nextU32() % syllables.length]).join('')).join(' ');
const paragraphs = (k: number, w: number) => Array.from({ length: k }, () => `<p>${words(w)}</p>`).join('\n');
const nearCopy = (html: string) => { let n = 0; return html.replace(/>([^<]+)/g, (_, t: string) => '>' + t.replace(/[A-Za-z]{3,}/g, (w) => (++n % 60 === 0 ? [...w].reverse().join('') : w))); };

for (const k of [8, 5, 4, 3, 2]) {
  const head = `<header>${paragraphs(5, 38)}</header>`, foot = `<footer>${paragraphs(3, 38)}</footer>`;
  const pages: { url: string; html: string }[] = [];
  for (let i = 0; i < 20; i++) pages.push({ url: `http://x.example/a/${i}.html`, html: `<html><head><title>X ${i}</title></head><body>${head}<main><h1>X ${i}</h1>${paragraphs(k, 30)}</main>${foot}</body></html>` });
  for (let i = 0; i < 10; i++) pages.push({ url: `http://c${i}.example/n/${i}.html`, html: nearCopy(pages[i].html) });
  for (const content of ['main', 'page'] as const) {
    const { records, summary } = await findNearDuplicates(pages, { workers: 1, sketch: { content } });
    const with_ = (a: string, b: string) => records.some((r) => r.members.some((m) => m.url === a) && r.members.some((m) => m.url === b));
    let caught = 0;
    for (let i = 0; i < 10; i++) if (with_(`http://c${i}.example/n/${i}.html`, `http://x.example/a/${i}.html`)) caught++;
    const merged = records.filter((r) => r.members.filter((m) => m.url.startsWith('http://x.example/')).length > 1).length;
    const across = summary.content ? `, ${summary.content.acrossChecked} pairs checked whole, ${summary.content.acrossJoined} joined` : '';
    console.log(`template share ${(304 / (304 + 30 * k)).toFixed(2)}, content ${content}: ${caught} of 10 copies with their original, ${merged} clusters of two originals or more${across}`);
  }
}
