// Crawl inputs of every kind holding the same pages: the bundled sample (a wget mirror of real
// pages), and the same documents as JSONL, gzipped JSONL and a WARC.gz with one gzip member per record.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadCrawl } from '../../src/io/crawl.js';
import type { Document } from '../../src/graph/document.js';
import { concat, gzipMembers, httpResponse } from '../io/fixtures.js';

/** The bundled sample crawl folder. */
export const SAMPLE = join(process.cwd(), 'sample');

/** Takes a folder; writes the sample's HTML pages there as every input kind; returns their paths and the documents. */
export async function writeInputs(dir: string): Promise<{ folder: string; jsonl: string; jsonlGz: string; warc: string; urls: string; docs: Document[] }> {
  const { documents } = await loadCrawl(SAMPLE, { links: false });
  const docs = documents.filter((d) => d.contentType === 'text/html' && !d.charset?.startsWith('windows'));
  const dec = new TextDecoder();
  const lines = docs.map((d) => JSON.stringify({ url: d.url, html: dec.decode(d.utf8 ?? d.bytes), date: '2024-01-02T03:04:05Z' })).join('\n') + '\n';
  const jsonl = join(dir, 'pages.jsonl'), jsonlGz = join(dir, 'pages.jsonl.gz'), warc = join(dir, 'pages.warc.gz'), urls = join(dir, 'pages.urls');
  writeFileSync(jsonl, lines);
  writeFileSync(jsonlGz, gzipSync(lines));
  writeFileSync(warc, concat(gzipMembers(docs.map((d) => httpResponse(d.url, d.utf8 ?? d.bytes, { contentType: 'text/html; charset=utf-8' })))));
  writeFileSync(urls, docs.slice(0, 20).map((d) => d.url).join('\n') + '\n');
  return { folder: SAMPLE, jsonl, jsonlGz, warc, urls, docs };
}

/** A generated JSONL crawl: families of near-duplicate texts (edits of 1%, 3%, 20% of words), some identical, some unrelated. */
export function generatedCrawl(path: string, families = 12, seed = 7): string[] {
  let state = seed >>> 0;
  const next = () => { state = (Math.imul(state, 1664525) + 1013904223) >>> 0; return state / 2 ** 32; };
  const vocab = Array.from({ length: 3000 }, (_, i) => `w${(i * 7919) % 100003}`);
  const text = (n: number) => Array.from({ length: n }, () => vocab[Math.floor(next() * vocab.length)]);
  const edit = (w: string[], f: number) => w.map((x) => (next() < f ? vocab[Math.floor(next() * vocab.length)] : x));
  const texts: string[] = [];
  for (let g = 0; g < families; g++) {
    const base = text(300 + Math.floor(next() * 400));
    texts.push(base.join(' '));
    for (const f of [0.01, 0.03, 0.08, 0.2]) texts.push(edit(base, f).join(' '));
    if (g % 3 === 0) texts.push(base.join(' '));
  }
  for (let i = 0; i < 8; i++) texts.push(text(400).join(' '));
  writeFileSync(path, texts.map((t, i) => JSON.stringify({ url: `http://gen${i % 5}.example.org/p${i}.html`, text: t })).join('\n') + '\n');
  return texts;
}
