/**
 * The HTTP status line and header fields at the start of a WARC response block, parsed in one
 * synchronous pass over the block: the fields, status and payload offset that warcio's
 * StatusAndHeadersParser gives (read through its AsyncIterReader over the one block, into the
 * Fetch standard's Headers), byte for byte, without its copies of the block (it slices the rest of
 * the block twice), its promises, or Headers (whose first use loads Node's fetch implementation,
 * some 60 ms, and whose checks cost more than the rest of the parse): HttpFields keeps the fields
 * as Headers does. test/io/http-head.test.ts holds both against warcio's parser and Headers.
 */

/** What a response block starts with: its status code, header fields and the payload after them. */
export interface HttpHead {
  /** The status line's second word as a number (NaN when it is not one, 0 when there is none). */
  status: number;
  headers: HttpFields;
  payload: Uint8Array;
}

/** A header name as Headers takes it: an RFC 9110 token (`!#$%&'*+-.^_\`|~`, digits, letters). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What Headers refuses in a value (after trimming HTTP whitespace): NUL, CR, LF. */
const BAD_VALUE = /[\0\r\n]/;
/** A character Headers' ByteString conversion refuses (above U+00FF). */
const NOT_BYTE = /[^\x00-\xff]/;

/** Trims HTTP whitespace (tab, LF, CR, space) from both ends, as Headers normalizes a value. */
function normalizeValue(v: string): string {
  let i = 0, j = v.length;
  const ws = (c: number) => c === 9 || c === 10 || c === 13 || c === 32;
  while (j > i && ws(v.charCodeAt(j - 1))) j--;
  while (j > i && ws(v.charCodeAt(i))) i++;
  return i === 0 && j === v.length ? v : v.slice(i, j);
}

/**
 * Header fields kept as the Fetch standard's Headers keeps them: names by their lowercase, a
 * repeated field's values joined by ', ' ('; ' for Cookie), a name that is not a token or a value
 * holding NUL, CR or LF or a character above U+00FF refused.
 */
export class HttpFields {
  private readonly fields = new Map<string, string>();

  /** Appends a field as Headers.append does; returns false where Headers.append would throw (nothing kept then). */
  append(name: string, value: string): boolean {
    if (NOT_BYTE.test(name) || NOT_BYTE.test(value)) return false;
    const v = normalizeValue(value);
    if (!TOKEN.test(name) || BAD_VALUE.test(v)) return false;
    const key = name.toLowerCase();
    const before = this.fields.get(key);
    this.fields.set(key, before === undefined ? v : `${before}${key === 'cookie' ? '; ' : ', '}${v}`);
    return true;
  }

  /** The field's value (repeated ones joined), or null when there is none, as Headers.get. */
  get(name: string): string | null {
    return this.fields.get(name.toLowerCase()) ?? null;
  }

  /** True when the field is there, as Headers.has. */
  has(name: string): boolean {
    return this.fields.has(name.toLowerCase());
  }

  /** The fields as [lowercase name, value], in the order they first came. */
  entries(): [string, string][] {
    return [...this.fields];
  }
}

const utf8 = new TextDecoder('utf-8');
const enc = new TextEncoder();

/** A string's UTF-8 bytes as one Latin-1 character each (warcio's UTFToLatin1). */
function utf8AsLatin1(s: string): string {
  const b = enc.encode(s);
  let out = '';
  for (let i = 0; i < b.length; i++) out += String.fromCharCode(b[i]);
  return out;
}

/** Appends a field as warcio's setHeader does: as it is, else its UTF-8 bytes as Latin-1, else not at all. */
function append(headers: HttpFields, name: string, value: string): void {
  // a name or value refused either way is dropped, as warcio drops it
  if (!headers.append(name, value)) headers.append(name, utf8AsLatin1(value));
}

/**
 * Where the header fields after the status line end: the index just past the LF of the first
 * CR LF CR LF in `b` from `from`, or -1. The scan is warcio's indexOfDoubleCRLF on one chunk,
 * with its bound (at most length - 4 carriage returns looked at) and its give-up when a CR lies
 * in the last three bytes.
 */
function headEnd(b: Uint8Array, from: number): number {
  const length = b.length - from;
  let start = from;
  for (let i = 0; i < length - 4; i++) {
    const cr = b.indexOf(13, start);
    if (cr < 0) return -1;
    if (cr + 3 >= b.length) return -1;
    if (b[cr + 1] === 10 && b[cr + 2] === 13 && b[cr + 3] === 10) return cr + 4;
    start = cr + 1;
  }
  return -1;
}

/** Takes a response block; returns its status, header fields and payload, or undefined when it has no status line. */
export function parseHttpHead(block: Uint8Array): HttpHead | undefined {
  const nl = block.indexOf(10);
  const lineEnd = nl < 0 ? block.length : nl + 1;
  const statusline = utf8.decode(block.subarray(0, lineEnd)).trimEnd();
  if (!statusline) return undefined;
  const headers = new HttpFields();
  let payloadAt = block.length;
  let text = '';
  if (lineEnd < block.length) {
    const end = headEnd(block, lineEnd);
    if (end >= 0) payloadAt = end;
    text = utf8.decode(block.subarray(lineEnd, payloadAt));
  }
  // warcio's field loop over the decoded header text: lines split at LF, continuation lines
  // (starting with a space or tab) appended to a non-empty value, empty values dropped
  let start = 0;
  let name = '';
  let value: string | null = null;
  while (start < text.length) {
    const valueEnd = text.indexOf('\n', start);
    const c = text[start];
    if (value && (c === ' ' || c === '\t')) {
      value += text.slice(start, valueEnd < 0 ? undefined : valueEnd).trimEnd();
    } else {
      if (value) {
        append(headers, name, value);
        value = null;
      }
      const nameEnd = text.indexOf(':', start);
      if (nameEnd >= 0 && nameEnd < valueEnd) {
        name = text.slice(start, nameEnd).trimStart();
        value = text.slice(nameEnd + 1, valueEnd).trim();
      } else value = null;
    }
    if (valueEnd < 0) break;
    start = valueEnd + 1;
  }
  if (value) append(headers, name, value);
  const parts = statusline.split(' ');
  return { status: parts.length > 1 ? Number(parts[1]) : 0, headers, payload: block.subarray(payloadAt) };
}
