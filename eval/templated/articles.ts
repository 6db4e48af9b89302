// Real article text for the templated crawls: the paragraphs of a Publican (DocBook) manual —
// The Debian Administrator's Handbook for the templated crawl, the Securing Debian Manual for the
// crossed check — grouped by the section they belong to and cut into articles of 130–420 words
// made of whole paragraphs. Each paragraph is used once.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Parser } from 'htmlparser2';

/** One article: a title and its paragraphs (plain text, whitespace collapsed). */
export interface Article {
  id: number;
  title: string;
  paragraphs: string[];
  /** The handbook page and section it came from. */
  source: string;
}

interface Section { title: string; file: string; paragraphs: string[] }

/** Reads every page of a Publican manual's folder whose name matches `pages`; returns its sections in file order. */
function readSections(dir: string, pages: RegExp): Section[] {
  const files = readdirSync(dir).filter((f) => pages.test(f)).sort();
  const out: Section[] = [];
  for (const file of files) {
    const html = readFileSync(join(dir, file), 'utf8');
    let current: Section = { title: '', file, paragraphs: [] };
    let inTitle = 0, titleText = '';
    let paraDepth = 0, depth = 0, paraText = '';
    const parser = new Parser({
      onopentag(name, attrs) {
        depth++;
        const cls = attrs.class ?? '';
        if (paraDepth === 0 && name === 'div' && cls.split(' ').includes('para')) { paraDepth = depth; paraText = ''; }
        if (paraDepth === 0 && /^h[1-4]$/.test(name) && cls.includes('title')) { inTitle = depth; titleText = ''; }
      },
      ontext(text) {
        if (paraDepth) paraText += text;
        else if (inTitle) titleText += text;
      },
      onclosetag() {
        if (paraDepth && depth === paraDepth) {
          const t = paraText.replace(/\s+/g, ' ').trim();
          if (t.split(' ').length >= 12) current.paragraphs.push(t);
          paraDepth = 0;
        }
        if (inTitle && depth === inTitle) {
          if (current.paragraphs.length) out.push(current);
          const title = titleText.replace(/\s+/g, ' ').trim().replace(/^[A-Z]?[\d.]+\s+/, '');
          current = { title, file, paragraphs: [] };
          inTitle = 0;
        }
        depth--;
      },
    }, { decodeEntities: true });
    parser.write(html);
    parser.end();
    if (current.paragraphs.length) out.push(current);
  }
  return out;
}

const words = (s: string) => s.split(' ').length;

/**
 * Cuts sections into articles: consecutive paragraphs of one section until the article reaches
 * a length drawn from [130, 420] words; a section's remainder shorter than 130 words is dropped.
 * `pages` picks the manual's files (default: the handbook's sect.*.html).
 */
export function readArticles(dir: string, rnd: () => number, pages = /^sect\..*\.html$/): Article[] {
  const articles: Article[] = [];
  const seenTitles = new Map<string, number>();
  for (const sec of readSections(dir, pages)) {
    let i = 0;
    while (i < sec.paragraphs.length) {
      const target = 130 + Math.floor(rnd() * 290);
      const paras: string[] = [];
      let n = 0;
      while (i < sec.paragraphs.length && n < target) {
        const p = sec.paragraphs[i++];
        if (n + words(p) > 440 && n >= 130) { i--; break; }
        paras.push(p); n += words(p);
      }
      if (n < 130 || n > 440) continue;
      const base = sec.title || sec.file.replace(/^sect\.|\.html$/g, '');
      const k = (seenTitles.get(base) ?? 0) + 1;
      seenTitles.set(base, k);
      const title = k === 1 ? base : `${base} (part ${k})`;
      articles.push({ id: articles.length, title, paragraphs: paras, source: `${sec.file} § ${sec.title}` });
    }
  }
  return articles;
}
