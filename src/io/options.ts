import { enumOption, optionError, rejectUnknown } from '../errors.js';
import type { ReadError } from '../graph/document.js';

/** Why a record was read but not kept as a document. */
export type SkipReason = 'binary' | 'status' | 'other';

/** A record that was read and deliberately not kept (not an error): counted in the summary. */
export interface SkipEvent {
  reason: SkipReason;
  source: string;
  location: string;
}

/** The input kinds `readCrawl` knows. */
export type InputKind = 'folder' | 'warc' | 'jsonl' | 'urls' | 'file';
/** Every input kind, for validation and help text. */
export const INPUT_KINDS: readonly InputKind[] = ['folder', 'warc', 'jsonl', 'urls', 'file'];

/** Options shared by every reader; each is documented with its default. */
export interface ReadOptions {
  /** Called for each record that cannot be used, with its location; reading goes on. Default: ignore. */
  onError?: (e: ReadError) => void;
  /** Called for each record read but not kept (binary file, non-2xx response, revisit). Default: ignore. */
  onSkip?: (s: SkipEvent) => void;
  /** Called with the number of input bytes just read from disk (compressed bytes for .gz), for progress. */
  onBytes?: (n: number) => void;
  /** Extract out-links from HTML documents into `Document.links`. Default true; costs one HTML parse per page. */
  links?: boolean;
  /** Scheme given to URLs rebuilt from a wget mirror folder (the layout does not record it). Default 'http'. */
  scheme?: 'http' | 'https';
  /** Keep WARC responses of any HTTP status. Default false: only 2xx responses are documents (others are counted as skipped). */
  allStatuses?: boolean;
  /** Force the input kind instead of detecting it from the path. Default: detect. */
  kind?: InputKind;
}

/** Options after validation: every field present. */
export interface ResolvedReadOptions {
  onError: (e: ReadError) => void;
  onSkip: (s: SkipEvent) => void;
  onBytes: (n: number) => void;
  links: boolean;
  scheme: 'http' | 'https';
  allStatuses: boolean;
  kind: InputKind | undefined;
}

const KNOWN = ['onError', 'onSkip', 'onBytes', 'links', 'scheme', 'allStatuses', 'kind'];

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
    kind: options.kind === undefined ? undefined : enumOption('kind', options.kind, 'folder', INPUT_KINDS),
  };
}
