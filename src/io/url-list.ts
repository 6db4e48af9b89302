import type { Document } from '../graph/document.js';
import { normalizeUrl } from '../graph/url.js';
import { readLines } from './lines.js';
import { resolveReadOptions, type ReadOptions } from './options.js';

const EMPTY = new Uint8Array(0);

/**
 * Takes a URL list (`.txt`, `.urls`; `.gz` allowed; `-` for standard input): one URL per line,
 * optionally followed by whitespace and the server IP; blank lines and `#` comments ignored. Yields
 * documents with empty bytes, for the mirror algorithms that work from URLs alone. A line whose URL
 * does not parse, or one over the record cap, is reported with its number.
 */
export async function* readUrlList(path: string, options: ReadOptions = {}): AsyncGenerator<Document> {
  const opts = resolveReadOptions(options, 'readUrlList');
  for await (const { text, number } of readLines(path, opts)) {
    const line = text.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [url, ip, ...rest] = line.split(/\s+/);
    const problem = normalizeUrl(url) === undefined ? `unparseable URL ${JSON.stringify(url.slice(0, 200))}` : rest.length > 0 ? 'expected "URL [IP]", got more columns' : undefined;
    if (problem) {
      opts.onError({ source: path, location: `line ${number}`, code: 'E_INPUT', message: problem });
      continue;
    }
    const doc: Document = { url, bytes: EMPTY, source: `${path}:${number}` };
    if (ip !== undefined) doc.ip = ip;
    yield doc;
  }
}
