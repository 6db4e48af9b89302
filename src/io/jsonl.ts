import type { Document } from '../graph/document.js';
import { normalizeUrl } from '../graph/url.js';
import { readLines } from './lines.js';
import { makeDocument } from './make-document.js';
import { resolveReadOptions, type ReadOptions, type ResolvedReadOptions } from './options.js';

const encoder = new TextEncoder();

interface Fields {
  url: string;
  body: string;
  html: boolean;
  date?: string;
  ip?: string;
}

/** Takes an id that is not a URL; returns the `id:` URL that stands for it. */
export function idUrl(id: string): string {
  return `id:${encodeURIComponent(id)}`;
}

/** Takes one JSONL line and the field names; returns the fields of a document, or a message saying what is wrong with it. */
function parseLine(text: string, opts: ResolvedReadOptions): Fields | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return `not JSON: ${(e as Error).message}`;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'expected a JSON object';
  const o = value as Record<string, unknown>;
  const { idField, htmlField, textField } = opts;
  const id = o[idField];
  let url: string;
  if (idField === 'url') {
    if (typeof id !== 'string') {
      const hint = typeof o.id === 'string' || typeof o.id === 'number' ? ' (records with an "id" instead: --id-field id)' : '';
      return `expected a string "url"${hint}`;
    }
    if (normalizeUrl(id) === undefined) return `unparseable url ${JSON.stringify(id)}`;
    url = id;
  } else {
    if (typeof id !== 'string' && !(typeof id === 'number' && Number.isFinite(id))) return `expected a string or number ${JSON.stringify(idField)}`;
    const s = String(id);
    url = /^https?:\/\//i.test(s) && normalizeUrl(s) !== undefined ? s : idUrl(s);
  }
  const html = typeof o[htmlField] === 'string';
  if (!html && typeof o[textField] !== 'string') return `expected a string ${JSON.stringify(htmlField)} or ${JSON.stringify(textField)}`;
  for (const key of ['date', 'ip'] as const) {
    if (o[key] !== undefined && typeof o[key] !== 'string') return `expected "${key}" to be a string`;
  }
  return { url, body: (html ? o[htmlField] : o[textField]) as string, html, date: o.date as string | undefined, ip: o.ip as string | undefined };
}

/**
 * Takes a `.jsonl` (or `.jsonl.gz`, or `-`) input of objects `{url, html | text, date?, ip?}`, one
 * per line (the id, HTML and text field names can be changed: `idField`, `htmlField`,
 * `textField`); yields them as documents (`html` → text/html with links extracted, `text` →
 * text/plain, bytes are the UTF-8 of the string). Blank lines are ignored; a bad line or one over
 * the record cap is reported with its number and skipped. A byte-order mark is ignored.
 */
export async function* readJsonl(path: string, options: ReadOptions = {}): AsyncGenerator<Document> {
  const opts = resolveReadOptions(options, 'readJsonl');
  for await (const { text, number } of readLines(path, opts)) {
    if (text.trim() === '') continue;
    const fields = parseLine(text, opts);
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
}
