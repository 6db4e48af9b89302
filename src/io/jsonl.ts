import type { Document } from '../graph/document.js';
import { normalizeUrl } from '../graph/url.js';
import { readFields } from './jsonl-fields.js';
import { readLines, type Line } from './lines.js';
import { makeDocument } from './make-document.js';
import { resolveReadOptions, type ReadOptions, type ResolvedReadOptions } from './options.js';

const encoder = new TextEncoder();

/** The fields of one JSONL record. */
export interface Fields {
  url: string;
  /** The page's string as UTF-8. */
  body: Uint8Array;
  html: boolean;
  date?: string;
  ip?: string;
}

/** Takes an id that is not a URL; returns the `id:` URL that stands for it. */
export function idUrl(id: string): string {
  // a lone surrogate (legal in a JSON string) stands as U+FFFD: encodeURIComponent would throw on it
  return `id:${encodeURIComponent(id.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'))}`;
}

/**
 * Takes a record and a field name; returns the field's value: the top-level field of that name,
 * else, for a dotted name (`metadata.url`, as datatrove and Dolma nest a document's URL), the
 * field reached through nested objects.
 */
export function fieldAt(o: Record<string, unknown>, name: string): unknown {
  if (Object.hasOwn(o, name) || !name.includes('.')) return o[name];
  let v: unknown = o;
  for (const part of name.split('.')) {
    if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, part)) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/** Takes one JSONL line's value and the field names; returns the fields of a document, or a message saying what is wrong with it. */
function fieldsOf(o: Record<string, unknown>, opts: ResolvedReadOptions, page?: Uint8Array): Fields | string {
  const { idField, htmlField, textField } = opts;
  const id = fieldAt(o, idField);
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
  const html = typeof fieldAt(o, htmlField) === 'string';
  if (!html && typeof fieldAt(o, textField) !== 'string') return `expected a string ${JSON.stringify(htmlField)} or ${JSON.stringify(textField)}`;
  for (const key of ['date', 'ip'] as const) {
    if (o[key] !== undefined && typeof o[key] !== 'string') return `expected "${key}" to be a string`;
  }
  const body = page ?? encoder.encode(fieldAt(o, html ? htmlField : textField) as string);
  return { url, body, html, date: o.date as string | undefined, ip: o.ip as string | undefined };
}

/**
 * Takes one JSONL line; returns the fields of a document, a message saying what is wrong with it,
 * or null for a blank line. `fast` (default true) reads the fields from the line's bytes when it
 * can (the same fields, see jsonl-fields.ts); false always parses the decoded text.
 */
export function parseJsonlLine(line: Pick<Line, 'bytes' | 'text'>, opts: ResolvedReadOptions, fast = true): Fields | string | null {
  // the fast path: fields read from the bytes, the page's string unescaped straight to UTF-8
  const raw = fast ? readFields(line.bytes, [opts.htmlField, opts.textField], [opts.idField, 'id', 'date', 'ip'], true, opts.pageBytes) : undefined;
  if (raw) {
    const o = Object.fromEntries(raw.values) as Record<string, unknown>;
    if (raw.page) o[raw.page.key] = '';
    return fieldsOf(o, opts, raw.page?.bytes);
  }
  const text = line.text;
  if (text.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return `not JSON: ${(e as Error).message}`;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'expected a JSON object';
  return fieldsOf(value as Record<string, unknown>, opts);
}

/**
 * Takes one JSONL line of `path` (its bytes, number and offset) and resolved reader options;
 * returns its document (with its origin when the line has an offset), undefined for a binary page
 * (skipped), null for a blank line, or a message saying what is wrong with it. readJsonl reads
 * every line through it, and the exact checks each line they read back, so both get the same bytes.
 */
export function jsonlDocument(line: Pick<Line, 'bytes' | 'text' | 'number' | 'offset'>, path: string, opts: ResolvedReadOptions): Document | string | null | undefined {
  const fields = parseJsonlLine(line, opts);
  if (fields === null || typeof fields === 'string') return fields;
  const doc = makeDocument({
    url: fields.url,
    bytes: fields.body,
    mime: fields.html ? 'text/html' : 'text/plain',
    // A JSON string is already decoded text: its bytes here are UTF-8 whatever charset its
    // <meta> tag declares (the page's original encoding), so the meta tag must not apply.
    headerCharset: fields.html ? 'utf-8' : undefined,
    utf8Text: true,
    date: fields.date,
    ip: fields.ip,
    source: `${path}:${line.number}`,
  }, opts.links);
  if (doc && line.offset !== undefined) doc.origin = { path, kind: 'jsonl', offset: line.offset, length: line.bytes.length };
  return doc;
}

/**
 * Takes a `.jsonl` (or `.jsonl.gz`, or `-`) input of objects `{url, html | text, date?, ip?}`, one
 * per line (the id, HTML and text field names can be changed: `idField`, `htmlField`,
 * `textField`); yields them as documents (`html` → text/html with links extracted, `text` →
 * text/plain, bytes are the UTF-8 of the string). Blank lines are ignored; a bad line or one over
 * the record cap is reported with its number and skipped. A byte-order mark is ignored. Documents
 * of a plain file carry their line's place (`origin`).
 */
export async function* readJsonl(path: string, options: ReadOptions = {}): AsyncGenerator<Document> {
  const opts = resolveReadOptions(options, 'readJsonl');
  for await (const line of readLines(path, opts)) {
    const doc = jsonlDocument(line, path, opts);
    if (doc === null) continue;
    if (typeof doc === 'string') opts.onError({ source: path, location: `line ${line.number}`, code: 'E_INPUT', message: doc });
    else if (doc) yield doc;
    else opts.onSkip({ reason: 'binary', source: path, location: `line ${line.number}` });
  }
}
