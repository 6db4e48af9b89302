// Lays out a templated crawl: article text on invented sites, each page inside its site's
// template; articles republished across sites verbatim or with small edits, print views and
// tracking-URL copies on some sites, mirrors of a documentation site, short briefs and their
// updated copies, and index, category, tag and about pages that hold no article.
// Deterministic: same articles, sites and seed, same bytes. Writes, under OUT:
//   crawl/<host>/<path>      the crawl as wget --mirror lays it out
//   crawl.jsonl              the same pages as {url, html}, in folder order
//   pages.jsonl              per page: url, host, role, article id (null: none), variant, article text
// Used by news-sites.ts (the templated crawl) and mixed-templates.ts (the crossed check).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Article } from './articles.js';
import { AUTHORS, FOOTER_LINKS, FOOTER_SENTENCES, MENU_PHRASES, TAGS, dateText, pick, random, type SiteStyle } from './sites.js';

/** One article as one site shows it. */
interface Post {
  site: SiteStyle;
  slug: string;
  path: string;
  article: number;
  variant: 'original' | 'verbatim' | 'edited' | 'brief' | 'update';
  from?: string;
  title: string;
  paragraphs: string[];
  date: string;
  author: string;
  tags: string[];
  category: string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const slugOf = (t: string) => t.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'post';
const wordCount = (s: string) => s.split(/\s+/).filter(Boolean).length;

// ---- small edits of a syndicated copy ----
const SWAPS: Record<string, string> = {
  the: 'the', can: 'may', use: 'employ', uses: 'employs', also: 'too', very: 'really', often: 'frequently',
  however: 'but', allows: 'lets', large: 'big', small: 'little', simple: 'easy', quickly: 'fast', show: 'display',
  shows: 'displays', file: 'file', files: 'files', system: 'system', must: 'has to', first: 'initially', needs: 'requires',
};

/** A copy with small edits: a new title half the time, a few words changed, a sentence dropped or added. */
function edit(r: () => number, a: Article): { title: string; paragraphs: string[] } {
  const title = r() < 0.5 ? a.title : pick(r, ['How to: ', 'Guide: ', 'Explained: ', 'In depth: '], 1)[0] + a.title;
  let paragraphs = a.paragraphs.map((p) => p.split(' ').map((w) => {
    const key = w.toLowerCase();
    if (SWAPS[key] && SWAPS[key] !== key && r() < 0.5) return SWAPS[key];
    return w;
  }).join(' '));
  if (r() < 0.4) {
    // drop one sentence of a paragraph with several
    const i = Math.floor(r() * paragraphs.length);
    const sentences = paragraphs[i].split(/(?<=[.!?])\s+/);
    if (sentences.length > 2) { sentences.splice(Math.floor(r() * sentences.length), 1); paragraphs[i] = sentences.join(' '); }
  }
  if (r() < 0.3) paragraphs = [...paragraphs.slice(0, -1), paragraphs[paragraphs.length - 1] + ' Editor\'s note: the steps above were checked again on a current stable release.'];
  return { title, paragraphs };
}

// ---- template pieces ----
function menu(site: SiteStyle): string {
  const r = random(site.seed + 2);
  const phrases = pick(r, MENU_PHRASES, MENU_PHRASES.length);
  const sections: string[] = [];
  let words = 0, i = 0;
  while (words < site.headerWords - 10 && i < phrases.length) {
    const head = phrases[i++];
    const items: string[] = [];
    const k = 3 + Math.floor(r() * 6);
    for (let j = 0; j < k && i < phrases.length && words < site.headerWords - 10; j++) {
      const p = phrases[i++];
      items.push(`<li><a href="/section/${slugOf(p)}/">${esc(p)}</a></li>`);
      words += wordCount(p);
    }
    words += wordCount(head);
    sections.push(`<li class="menu-item has-children"><a href="/section/${slugOf(head)}/">${esc(head)}</a><ul class="sub-menu">${items.join('')}</ul></li>`);
  }
  const top = `<div class="top-bar"><span>${esc(site.name)}</span> <a href="/subscribe/">Subscribe</a> <a href="/login/">Sign in</a> <form action="/search"><input name="q" placeholder="Search"><button>Search</button></form></div>`;
  return site.layout === 'table'
    ? `<table class="header" width="100%"><tr><td class="logo"><a href="/">${esc(site.name)}</a></td><td>${top}</td></tr><tr><td colspan="2"><ul class="nav">${sections.join('')}</ul></td></tr></table>`
    : `<header id="masthead">${top}<div class="logo"><a href="/">${esc(site.name)}</a></div><nav class="main-navigation"><ul class="menu">${sections.join('')}</ul></nav></header>`;
}

function footer(site: SiteStyle): string {
  const r = random(site.seed + 3);
  const sentences = pick(r, FOOTER_SENTENCES, FOOTER_SENTENCES.length);
  let words = 0;
  const paras: string[] = [];
  for (const s of sentences) {
    if (words >= site.footerWords * 0.6) break;
    const t = paras.length === 0 ? `${site.name} ${s}` : s;
    paras.push(`<p>${esc(t)}</p>`); words += wordCount(t);
  }
  const links = pick(r, FOOTER_LINKS, Math.max(3, Math.round((site.footerWords - words) / 1.6)));
  const c = `<p class="copyright">© 2024 ${esc(site.name)}. All rights reserved.</p>`;
  return `<footer id="colophon"><div class="footer-about">${paras.join('')}</div><ul class="footer-links">${links.map((l) => `<li><a href="/${slugOf(l)}/">${esc(l)}</a></li>`).join('')}</ul>${c}</footer>`;
}

function head(site: SiteStyle, title: string): string {
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${esc(title)} | ${esc(site.name)}</title>`
    + `<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="/assets/site.css">`
    + `<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config','${site.seed}');</script></head>`;
}

const linkList = (cls: string, heading: string, items: Post[]) =>
  `<section class="${cls}"><h3>${esc(heading)}</h3><ul>${items.map((p) => `<li><a href="/${p.path}">${esc(p.title)}</a></li>`).join('')}</ul></section>`;

function articleHtml(p: Post): string {
  const r = random(p.site.seed * 7919 + p.article);
  const paras = p.paragraphs.map((t) => {
    const ws = t.split(' ');
    if (r() < 0.3 && ws.length > 8) {
      // an inline link around two or three words, as articles have
      const i = 1 + Math.floor(r() * (ws.length - 4)), n = 2 + Math.floor(r() * 2);
      return `<p>${esc(ws.slice(0, i).join(' '))} <a href="/tag/${pick(r, TAGS, 1)[0]}/">${esc(ws.slice(i, i + n).join(' '))}</a> ${esc(ws.slice(i + n).join(' '))}</p>`;
    }
    return `<p>${esc(t)}</p>`;
  });
  return `<h1 class="entry-title">${esc(p.title)}</h1><div class="entry-content">${paras.join('\n')}</div>`;
}

function postPage(p: Post, list: Post[], popular: Post[]): string {
  const s = p.site;
  const r = random(s.seed * 104729 + p.article);
  const others = list.filter((x) => x !== p);
  const related = pick(r, others, s.related);
  const byline = s.byline ? `<div class="byline">By <a href="/author/${slugOf(p.author)}/">${esc(p.author)}</a> · ${esc(p.date)} · ${Math.max(1, Math.round(wordCount(p.paragraphs.join(' ')) / 200))} min read</div>` : '';
  const crumb = s.breadcrumb ? `<nav class="breadcrumb"><a href="/">Home</a> › <a href="/category/${slugOf(p.category)}/">${esc(p.category)}</a> › <span>${esc(p.title)}</span></nav>` : '';
  const tags = s.tags ? `<div class="tags">Tags: ${p.tags.map((t) => `<a href="/tag/${t}/">${t}</a>`).join(', ')}</div>` : '';
  const share = s.share ? '<div class="share">Share this article: <a href="#">Facebook</a> <a href="#">Mastodon</a> <a href="#">LinkedIn</a> <a href="#">Reddit</a> <a href="#">Email</a></div>' : '';
  const origin = p.from ? `<p class="syndication">This article was originally published on <a href="http://${p.from}/">${esc(p.from)}</a> and is republished with permission.</p>` : '';
  const news = s.newsletter ? `<section class="newsletter"><h3>Get the best of ${esc(s.name)} in your inbox</h3><p>One email every Friday with our new tutorials, reviews and the week's most important releases. No spam, unsubscribe at any time.</p><form><input type="email" placeholder="Email address"><button>Subscribe</button></form></section>` : '';
  const comments = `<section class="comments"><h3>${Math.floor(r() * 12)} comments</h3><p>Leave a comment. Your email address will not be published. Required fields are marked.</p></section>`;
  const side = [related.length ? linkList('related', 'Related articles', related) : '', popular.length ? linkList('popular', 'Most read', popular) : ''].join('');
  if (s.layout === 'docs') return docsPage(p, list);
  const main = `${crumb}<article class="post">${articleHtml(p).replace('</h1>', `</h1>${byline}`)}${origin}${tags}${share}</article>${news}${comments}`;
  const body = s.layout === 'table'
    ? `<table width="100%"><tr><td class="content" valign="top">${main}</td><td class="sidebar" width="30%" valign="top">${side}</td></tr></table>`
    : `<div id="page"><main id="main">${main}</main><aside id="secondary" class="widget-area">${side}</aside></div>`;
  return `${head(s, p.title)}<body>${menu(s)}${body}${footer(s)}</body></html>\n`;
}

/** A page of a documentation site: the manual's whole table of contents beside every page, previous and next links, a version box. */
function docsPage(p: Post, list: Post[]): string {
  const s = p.site;
  const at = list.indexOf(p);
  const toc = `<nav class="toc"><h3>${esc(s.name)} contents</h3><ul>${list.map((x) => `<li><a href="/${x.path}">${esc(x.title)}</a></li>`).join('')}</ul></nav>`;
  const link = (x: Post | undefined, rel: string) => (x ? `<a rel="${rel}" href="/${x.path}">${rel === 'prev' ? '« ' : ''}${esc(x.title)}${rel === 'next' ? ' »' : ''}</a>` : '');
  const versions = '<div class="versions"><p>You are reading the documentation of the current release. Older releases are kept online for reference.</p><select><option>current</option><option>previous</option></select></div>';
  const main = `<main class="doc">${articleHtml(p)}<div class="prevnext">${link(list[at - 1], 'prev')} ${link(list[at + 1], 'next')}</div><p class="edit">Found an error on this page? Every page of this manual can be edited and improved by its readers.</p></main>`;
  return `${head(s, p.title)}<body>${menu(s)}<div class="page">${toc}${main}${versions}</div>${footer(s)}</body></html>\n`;
}

function printPage(p: Post): string {
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${esc(p.title)} (print)</title><link rel="stylesheet" href="/assets/print.css"></head>`
    + `<body class="print"><div class="print-header">${esc(p.site.name)} · printer-friendly version</div>${articleHtml(p)}`
    + `<div class="print-footer">Printed from http://${p.site.host}/${p.path}</div></body></html>\n`;
}

function listingPage(s: SiteStyle, title: string, items: Post[], popular: Post[]): string {
  const lis = items.map((p) => `<li><a href="/${p.path}">${esc(p.title)}</a> <span class="meta">${esc(p.date)}${p.author ? ` · ${esc(p.author)}` : ''}</span></li>`).join('');
  const side = popular.length ? linkList('popular', 'Most read', popular) : '';
  const main = `<h1>${esc(title)}</h1><ul class="post-list">${lis}</ul><nav class="pagination"><a href="?page=1">1</a> <a href="?page=2">2</a> <a href="?page=3">Next</a></nav>`;
  const body = s.layout === 'table'
    ? `<table width="100%"><tr><td class="content">${main}</td><td class="sidebar">${side}</td></tr></table>`
    : `<div id="page"><main id="main">${main}</main><aside id="secondary">${side}</aside></div>`;
  return `${head(s, title)}<body>${menu(s)}${body}${footer(s)}</body></html>\n`;
}

function aboutPage(s: SiteStyle): string {
  const body = `<div id="page"><main id="main"><h1>About ${esc(s.name)}</h1><p>${esc(s.name)} was started by a few friends who wanted to write down what they learned running servers. Write to us at editors@${esc(s.host)}.</p></main></div>`;
  return `${head(s, 'About')}<body>${menu(s)}${body}${footer(s)}</body></html>\n`;
}

// ---- assign, lay out, write ----
interface PageRow { url: string; host: string; role: string; article: number | null; variant: string | null; text: string | null }

/** The first whole sentences of a paragraph, at least `min` words when it has them (a brief). */
function briefOf(paragraph: string, min: number): string {
  const sentences = paragraph.split(/(?<=[.!?])\s+/);
  let out = '';
  for (const x of sentences) { out = out ? `${out} ${x}` : x; if (wordCount(out) >= min) break; }
  return out;
}

/**
 * Builds a crawl of `sites` from `articles` under OUT (see the file comment): `rnd` is the
 * generator the articles were drawn with (it goes on drawing), `seed` the crawl's seed.
 */
export function buildCrawl(sites: SiteStyle[], articles: Article[], rnd: () => number, seed: number, out: string): string {
  const shuffled = pick(rnd, articles, articles.length);
  const posts = new Map<string, Post[]>();
  for (const s of sites) { posts.set(s.host, []); s.authors = pick(random(s.seed), AUTHORS, 4 + (s.seed % 3)); }
  let next = 0;
  const categoriesOf = new Map<string, string[]>();
  for (const s of sites) categoriesOf.set(s.host, pick(random(s.seed + 1), MENU_PHRASES.slice(1, 60), 6));
  const byId = new Map(articles.map((a) => [a.id, a]));

  function addPost(site: SiteStyle, a: Article, variant: Post['variant'], from?: string): void {
    const r = random(site.seed * 1000 + a.id);
    const text = variant === 'edited' ? edit(r, a) : variant === 'update'
      ? { title: `Update: ${a.title}`, paragraphs: [...a.paragraphs.slice(0, -1), `${a.paragraphs[a.paragraphs.length - 1]} (updated)`] }
      : { title: a.title, paragraphs: a.paragraphs };
    const date = dateText(r);
    const year = date.slice(-4), month = String(1 + Math.floor(r() * 12)).padStart(2, '0');
    const list = posts.get(site.host)!;
    let slug = slugOf(text.title);
    if (list.some((p) => p.slug === slug)) slug += `-${a.id}`;
    const path = site.layout === 'docs' ? `manual/${slug}.html` : variant === 'brief' || variant === 'update' ? `briefs/${year}/${slug}.html` : `${year}/${month}/${slug}.html`;
    list.push({
      site, slug, path, article: a.id, variant, from, title: text.title, paragraphs: text.paragraphs,
      date, author: site.authors.length ? pick(r, site.authors, 1)[0] : '', tags: pick(r, TAGS, 2 + Math.floor(r() * 3)),
      category: pick(r, categoriesOf.get(site.host)!, 1)[0],
    });
  }

  for (const s of sites) for (let k = 0; k < s.originals && next < shuffled.length; k++) addPost(s, shuffled[next++], 'original');
  // Syndication: about a third of the articles reappear on one or two other sites, half of them edited.
  const synd = random(seed + 7);
  const syndicating = sites.filter((s) => s.syndicates !== false);
  for (const s of syndicating) {
    for (const p of posts.get(s.host)!.filter((x) => x.variant === 'original')) {
      if (synd() >= 0.35) continue;
      const others = syndicating.filter((o) => o !== s);
      // an aggregator takes more than its share of copies
      const weights = others.map((o) => (o.aggregator ? 3 : 1));
      const targets = new Set<SiteStyle>();
      const count = synd() < 0.7 ? 1 : 2;
      while (targets.size < count) {
        let x = synd() * weights.reduce((a, b) => a + b, 0);
        let i = 0;
        while (x >= weights[i]) { x -= weights[i]; i++; }
        targets.add(others[i]);
      }
      for (const t of targets) addPost(t, byId.get(p.article)!, synd() < 0.5 ? 'verbatim' : 'edited', s.host);
    }
  }
  // Mirrors: a share of another site's originals, verbatim, under the mirror's own template.
  for (const s of sites) {
    if (!s.mirrorOf) continue;
    const r = random(s.seed + 6);
    for (const p of posts.get(s.mirrorOf)!.filter((x) => x.variant === 'original')) if (r() < (s.mirrorShare ?? 1)) addPost(s, byId.get(p.article)!, 'verbatim', s.mirrorOf);
  }
  // Briefs: short posts (the first sentences of a paragraph of an article used nowhere else), some updated at a second URL.
  let briefId = articles.length ? Math.max(...articles.map((a) => a.id)) + 1 : 0;
  for (const s of sites) {
    if (!s.briefs) continue;
    const r = random(s.seed + 8);
    for (let k = 0; k < s.briefs && next < shuffled.length; k++) {
      const from = shuffled[next++];
      const text = briefOf(from.paragraphs[0], 12 + Math.floor(r() * 45));
      const brief: Article = { id: briefId++, title: from.title, paragraphs: [text], source: from.source };
      addPost(s, brief, 'brief');
      if (r() < (s.briefUpdates ?? 0)) addPost(s, brief, 'update');
    }
  }

  const files: Array<{ file: string; url: string; html: string; row: PageRow }> = [];
  const articleText = (p: Post) => [p.title, ...p.paragraphs].join('\n');
  for (const s of sites) {
    const list = posts.get(s.host)!;
    const popular = pick(random(s.seed + 4), list, s.popular);
    const r = random(s.seed + 5);
    for (const p of list) {
      const row: PageRow = { url: `http://${s.host}/${p.path}`, host: s.host, role: `post-${p.variant}`, article: p.article, variant: p.variant, text: articleText(p) };
      const html = postPage(p, list, popular);
      files.push({ file: join(s.host, p.path), url: row.url, html, row });
      if (r() < s.print) {
        const url = `http://${s.host}/print/${p.slug}.html`;
        files.push({ file: join(s.host, 'print', `${p.slug}.html`), url, html: printPage(p), row: { ...row, url, role: 'print' } });
      }
      if (r() < s.tracking) {
        const q = '?utm_source=rss&utm_medium=feed';
        files.push({ file: join(s.host, `${p.path}${q}`), url: row.url + q, html, row: { ...row, url: row.url + q, role: 'tracking' } });
      }
    }
    const none = (url: string, role: string): PageRow => ({ url, host: s.host, role, article: null, variant: null, text: null });
    const byDate = list.slice().sort((a, b) => Date.parse(b.date) - Date.parse(a.date) || a.article - b.article);
    files.push({ file: join(s.host, 'index.html'), url: `http://${s.host}/`, html: listingPage(s, `${s.name}: latest articles`, byDate.slice(0, 20), popular), row: none(`http://${s.host}/`, 'index') });
    if (s.layout !== 'docs') {
      for (const c of categoriesOf.get(s.host)!) {
        const items = byDate.filter((p) => p.category === c);
        for (let pg = 0; pg * 15 < items.length; pg++) {
          const path = pg === 0 ? `category/${slugOf(c)}/index.html` : `category/${slugOf(c)}/page/${pg + 1}/index.html`;
          const url = `http://${s.host}/${path.replace(/index\.html$/, '')}`;
          files.push({ file: join(s.host, path), url, html: listingPage(s, `${c}${pg ? ` (page ${pg + 1})` : ''}`, items.slice(pg * 15, pg * 15 + 15), popular), row: none(url, 'category') });
        }
      }
    }
    if (s.tags) {
      for (const t of TAGS) {
        const items = byDate.filter((p) => p.tags.includes(t));
        if (items.length < 2) continue;
        const url = `http://${s.host}/tag/${t}/`;
        files.push({ file: join(s.host, 'tag', t, 'index.html'), url, html: listingPage(s, `Articles tagged ${t}`, items, popular), row: none(url, 'tag') });
      }
    }
    files.push({ file: join(s.host, 'about.html'), url: `http://${s.host}/about.html`, html: aboutPage(s), row: none(`http://${s.host}/about.html`, 'about') });
  }

  files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  rmSync(join(out, 'crawl'), { recursive: true, force: true });
  for (const f of files) {
    const path = join(out, 'crawl', f.file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, f.html);
  }
  writeFileSync(join(out, 'crawl.jsonl'), files.map((f) => JSON.stringify({ url: f.url, html: f.html })).join('\n') + '\n');
  writeFileSync(join(out, 'pages.jsonl'), files.map((f) => JSON.stringify(f.row)).join('\n') + '\n');

  const roles = new Map<string, number>();
  for (const f of files) roles.set(f.row.role, (roles.get(f.row.role) ?? 0) + 1);
  const bytes = files.reduce((a, f) => a + Buffer.byteLength(f.html), 0);
  return `${files.length} pages on ${sites.length} sites (${(bytes / 1048576).toFixed(1)} MiB) from ${articles.length} articles; ${[...roles].map(([k, v]) => `${k} ${v}`).join(', ')}`;
}
