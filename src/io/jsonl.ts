import type { Document } from '../graph/document.js';
import { normalizeUrl } from '../graph/url.js';
import { readLines } from './lines.js';
import { makeDocument } from './make-document.js';
import { resolveReadOptions, type ReadOptions } from './options.js';

const encoder = new TextEncoder();

/** Takes one JSONL line; returns the fields of a document, or a message saying what is wrong with it. */
function parseLine(text: string): { url: string; body: string; html: boolean; date?: string; ip?: string } | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return `not JSON: ${(e as Error).message}`;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'expected a JSON object';
  const o = value as Record<string, unknown>;
  if (typeof o.url !== 'string') return 'expected a string "url"';
  if (normalizeUrl(o.url) === undefined) return `unparseable url ${JSON.stringify(o.url)}`;
  const html = typeof o.html === 'string';
  if (!html && typeof o.text !== 'string') return 'expected a string "html" or "text"';
  for (const key of ['date', 'ip'] as const) {
    if (o[key] !== undefined && typeof o[key] !== 'string') return `expected "${key}" to be a string`;
  }
  return { url: o.url, body: (html ? o.html : o.text) as string, html, date: o.date as string | undefined, ip: o.ip as string | undefined };
}

/**
 * Takes a `.jsonl` (or `.jsonl.gz`) file of objects `{url, html | text, date?, ip?}`, one per line;
 * yields them as documents (`html` → text/html with links extracted, `text` → text/plain, bytes
 * are the UTF-8 of the string). Blank lines are ignored; a bad line is reported with its number.
 */
export async function* readJsonl(path: string, options: ReadOptions = {}): AsyncGenerator<Document> {
  const opts = resolveReadOptions(options, 'readJsonl');
  let last = 0;
  try {
    for await (const { text, number } of readLines(path, opts.onBytes)) {
      last = number;
      if (text.trim() === '') continue;
      const fields = parseLine(text);
      if (typeof fields === 'string') {
        opts.onError({ source: path, location: `line ${number}`, code: 'E_INPUT', message: fields });
        continue;
      }
      const doc = makeDocument({
        url: fields.url,
        bytes: encoder.encode(fields.body),
        mime: fields.html ? 'text/html' : 'text/plain',
        // A JSON string is already decoded text: its bytes here are UTF-8 whatever charset its
        // <meta> tag declares (the page's original encoding), so the meta tag must not apply.
        headerCharset: fields.html ? 'utf-8' : undefined,
        date: fields.date,
        ip: fields.ip,
        source: `${path}:${number}`,
      }, opts.links);
      if (doc) yield doc;
      else opts.onSkip({ reason: 'binary', source: path, location: `line ${number}` });
    }
  } catch (e) {
    opts.onError({ source: path, location: `line ${last + 1}`, code: 'E_IO', message: (e as Error).message });
  }
}
