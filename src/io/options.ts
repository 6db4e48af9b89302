import { enumOption, intOption, optionError, rejectUnknown } from '../errors.js';
import type { ReadError } from '../graph/document.js';

/**
 * Why a record was read but not kept as a document: binary content, a non-2xx status, a redirect
 * (3xx with a Location: an edge of the link graph, not a page), a text record that is not a page
 * (a stylesheet, script, JSON or robots.txt of a web crawl; `allText` keeps them), a URL that is
 * not http(s), a symbolic link or special file not followed, WARC metadata (`.wat`), a WARC
 * revisit that adds no page (a re-capture of the same URL, or one whose earlier record was not
 * read), other.
 */
export type SkipReason = 'binary' | 'status' | 'redirect' | 'not-page' | 'url' | 'link' | 'metadata' | 'revisit' | 'other';
/** Every skip reason, in the order the summary lists them. */
export const SKIP_REASONS: readonly SkipReason[] = ['binary', 'status', 'redirect', 'not-page', 'url', 'link', 'metadata', 'revisit', 'other'];

/** A record that was read and deliberately not kept (not an error): counted in the summary. */
export interface SkipEvent {
  reason: SkipReason;
  source: string;
  location: string;
  /** Why, in words, when the reason alone would surprise (a link out of the folder, a `file:` URL); the CLI prints these. */
  message?: string;
  /** The record's content type (MIME, lowercased), for `not-page` skips. */
  contentType?: string;
  /** A redirect's edge: the URL redirected, where its Location leads (resolved against it) and the status. */
  redirect?: { from: string; to: string; status: number; relative?: boolean };
}

/** The input kinds `readCrawl` knows. */
export type InputKind = 'folder' | 'warc' | 'jsonl' | 'urls' | 'file';
/** Every input kind, for validation and help text. */
export const INPUT_KINDS: readonly InputKind[] = ['folder', 'warc', 'jsonl', 'urls', 'file'];

/** The default cap on one record's bytes (after inflating), see `ReadOptions.maxRecordBytes`. */
export const DEFAULT_MAX_RECORD_BYTES = 32 << 20;

/** Options shared by every reader; each is documented with its default. */
export interface ReadOptions {
  /** Called for each record that cannot be used, with its location; reading goes on. Default: ignore. */
  onError?: (e: ReadError) => void;
  /** Called for each record read but not kept (binary file, non-2xx response, a revisit of the same URL or of a record not read before it). Default: ignore. */
  onSkip?: (s: SkipEvent) => void;
  /** Called with the number of input bytes just read from disk (compressed bytes for .gz), for progress. */
  onBytes?: (n: number) => void;
  /** Extract out-links from HTML documents into `Document.links`. Default true; costs one HTML parse per page. */
  links?: boolean;
  /** Scheme given to URLs rebuilt from a wget mirror folder (the layout does not record it). Default 'http'. */
  scheme?: 'http' | 'https';
  /** Keep WARC responses of any HTTP status. Default false: only 2xx responses are documents (others are counted as skipped; a 3xx with a Location as a redirect). */
  allStatuses?: boolean;
  /**
   * Keep a web crawl's text records that are not pages: stylesheets, scripts, JSON, robots.txt.
   * Default false: WARC and ARC records of those types are counted as skipped (`not-page`, with
   * their content type). Folders, JSONL and single files are read as they are either way.
   */
  allText?: boolean;
  /** Force the input kind instead of detecting it from the path (and, for standard input `-`, from its first bytes). Default: detect. */
  kind?: InputKind;
  /**
   * The most bytes one record may hold after inflating (a WARC record, a JSONL or URL-list line, a
   * file, an HTTP body after its Content-Encoding); larger ones are reported and skipped without
   * being held in memory. Default 32 MiB; memory use follows it (a few times the cap at most).
   */
  maxRecordBytes?: number;
  /** Follow symbolic links inside a folder that lead outside it (to files only; folders are never followed). Default false: reported and skipped. */
  followSymlinks?: boolean;
  /** Keep WARC records whose WARC-Target-URI is not an http(s) URL (`file:`, `javascript:`, relative). Default false: reported and skipped. */
  anyScheme?: boolean;
  /**
   * JSONL field naming the document: a URL, or any string or number (then the URL is `id:<id>`).
   * Default 'url'. A dotted name (`metadata.url`) reaches into nested objects when the record has
   * no top-level field of that name; so do `textField` and `htmlField`.
   */
  idField?: string;
  /** JSONL field holding plain text. Default 'text'. */
  textField?: string;
  /** JSONL field holding HTML (tried before the text field). Default 'html'. */
  htmlField?: string;
  /** Called with a note about a document that is kept but may surprise (a whole file read as one opaque document). Default: ignore. */
  onWarning?: (w: ReadError) => void;
  /**
   * Where the JSONL, WARC and ARC readers put each page's bytes: takes a byte count, returns a
   * buffer of that size (the streaming pipeline hands out pages from reused slabs). Default: a new
   * Uint8Array each.
   */
  pageBytes?: (n: number) => Uint8Array;
  /** Stops the reading: the next document read after it fires throws E_ABORTED. Default: none. */
  signal?: AbortSignal;
}

/** Options after validation: every field present. */
export interface ResolvedReadOptions {
  onError: (e: ReadError) => void;
  onSkip: (s: SkipEvent) => void;
  onBytes: (n: number) => void;
  links: boolean;
  scheme: 'http' | 'https';
  allStatuses: boolean;
  allText: boolean;
  kind: InputKind | undefined;
  maxRecordBytes: number;
  followSymlinks: boolean;
  anyScheme: boolean;
  idField: string;
  textField: string;
  htmlField: string;
  onWarning: (w: ReadError) => void;
  pageBytes: (n: number) => Uint8Array;
  signal: AbortSignal | undefined;
}

const KNOWN = ['onError', 'onSkip', 'onBytes', 'links', 'scheme', 'allStatuses', 'allText', 'kind', 'maxRecordBytes', 'followSymlinks', 'anyScheme', 'idField', 'textField', 'htmlField', 'onWarning', 'pageBytes', 'signal'];
const newBytes = (n: number) => new Uint8Array(n);

function field(name: string, value: unknown, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || value === '') throw optionError(name, 'a non-empty field name', value);
  return value;
}

function fn<T>(name: string, value: unknown, fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value !== 'function') throw optionError(name, 'a function', value);
  return value as T;
}

function bool(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw optionError(name, 'a boolean', value);
  return value;
}

/** Takes a signal option; returns it (undefined when not given), or throws E_OPTION when it is not an AbortSignal. */
export function signalOption(value: unknown, name = 'signal'): AbortSignal | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object' || typeof (value as AbortSignal).aborted !== 'boolean' || typeof (value as AbortSignal).addEventListener !== 'function') throw optionError(name, 'an AbortSignal', value);
  return value as AbortSignal;
}

/** Takes reader options; returns them validated with defaults filled in (throws E_OPTION on a bad value). */
export function resolveReadOptions(options: ReadOptions | ResolvedReadOptions = {}, where = 'readCrawl'): ResolvedReadOptions {
  rejectUnknown(options, KNOWN, where);
  const noop = () => {};
  return {
    onError: fn('onError', options.onError, noop),
    onSkip: fn('onSkip', options.onSkip, noop),
    onBytes: fn('onBytes', options.onBytes, noop),
    links: bool('links', options.links, true),
    scheme: enumOption('scheme', options.scheme, 'http', ['http', 'https'] as const),
    allStatuses: bool('allStatuses', options.allStatuses, false),
    allText: bool('allText', options.allText, false),
    kind: options.kind === undefined ? undefined : enumOption('kind', options.kind, 'folder', INPUT_KINDS),
    maxRecordBytes: intOption('maxRecordBytes', options.maxRecordBytes, DEFAULT_MAX_RECORD_BYTES, 1024, 2 ** 30),
    followSymlinks: bool('followSymlinks', options.followSymlinks, false),
    anyScheme: bool('anyScheme', options.anyScheme, false),
    idField: field('idField', options.idField, 'url'),
    textField: field('textField', options.textField, 'text'),
    htmlField: field('htmlField', options.htmlField, 'html'),
    onWarning: fn('onWarning', options.onWarning, noop),
    pageBytes: fn('pageBytes', options.pageBytes, newBytes),
    signal: signalOption(options.signal),
  };
}
