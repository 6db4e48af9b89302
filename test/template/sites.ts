// Generated templated sites for the content-mode tests: every site has a known template (header
// menu, footer, newsletter box, sidebar heading), each page an article of fresh words and a
// related-links sidebar drawn per page; index pages are the template plus a list of links.
import { rng, randomWords } from '../helpers/random.js';

/** One generated site: its pages, the text of each template block, and which article each page shows. */
export interface Site {
  host: string;
  pages: string[];
  /** Article id per page (-1 for an index page). */
  article: number[];
  /** The template's blocks as their text (each is one block of every post page). */
  templateBlocks: string[];
}

/** An article: a title and paragraphs of words no template uses. */
export interface Article { title: string; paragraphs: string[] }

/** n articles of fresh words (vocabulary disjoint from the templates'). */
export function articles(seed: number, n: number): Article[] {
  const r = rng(seed);
  const word = () => `a${Math.floor(r() * 1e6).toString(36)}`;
  return Array.from({ length: n }, () => ({
    title: Array.from({ length: 5 }, word).join(' '),
    paragraphs: Array.from({ length: 3 + Math.floor(r() * 3) }, () => Array.from({ length: 30 + Math.floor(r() * 40) }, word).join(' ')),
  }));
}

/**
 * A site showing `show` (article ids) with its own template of `menu` menu items and a footer.
 * `indexPages` pages list `listLinks` links and hold nothing else. Deterministic in seed.
 */
export function site(seed: number, host: string, all: Article[], show: number[], menu = 30, indexPages = 3, listLinks = 4): Site {
  const r = rng(seed);
  const items = Array.from({ length: menu }, () => randomWords(r, 1 + Math.floor(r() * 3), 5000).join(' '));
  const footer = [randomWords(r, 25, 5000).join(' '), randomWords(r, 18, 5000).join(' ')];
  const news = randomWords(r, 14, 5000).join(' ');
  const heading = `related ${randomWords(r, 2, 5000).join(' ')}`;
  const header = `<header><div class="logo">${host}</div><nav><ul>${items.map((t) => `<li><a href="/s/${t.replace(/ /g, '-')}">${t}</a></li>`).join('')}</ul></nav></header>`;
  const foot = `<footer>${footer.map((t) => `<p>${t}</p>`).join('')}</footer>`;
  const side = (links: string[]) => `<aside><h3>${heading}</h3><ul>${links.map((t) => `<li><a href="/p/${t.replace(/ /g, '-')}">${t}</a></li>`).join('')}</ul><section class="news"><p>${news}</p></section></aside>`;
  const pages: string[] = [], article: number[] = [];
  for (const id of show) {
    const a = all[id];
    const related = Array.from({ length: 5 }, () => all[show[Math.floor(r() * show.length)]].title);
    const body = `<article><h1>${a.title}</h1>${a.paragraphs.map((p) => `<p>${p}</p>`).join('\n')}</article>`;
    pages.push(`<!DOCTYPE html><html><head><title>${a.title} | ${host}</title><script>var x = "<p>not text</p>";</script></head><body>${header}<main>${body}</main>${side(related)}${foot}</body></html>`);
    article.push(id);
  }
  for (let k = 0; k < indexPages; k++) {
    const links = Array.from({ length: listLinks }, () => all[show[Math.floor(r() * show.length)]].title);
    pages.push(`<html><head><title>${host} page ${k}</title></head><body>${header}<main><ul>${links.map((t) => `<li><a href="/p/${t.replace(/ /g, '-')}">${t}</a></li>`).join('')}</ul></main>${side(links.slice(0, 3))}${foot}</body></html>`);
    article.push(-1);
  }
  return { host, pages, article, templateBlocks: [host, ...items, ...footer, news, heading] };
}
