/**
 * The error codes a `ResembleError` carries, each with what it means: a stable table, so callers
 * can branch on `e.code` and list the codes at run time. Each names what was wrong, never a machine detail.
 */
export const ERROR_CODES = Object.freeze({
  E_OPTION: 'an option out of range or of the wrong type',
  E_NOT_INITIALIZED: 'a synchronous call before `await init()`',
  E_WASM: 'the WebAssembly kernel reported an error code',
  E_FORMAT: 'serialized bytes with a wrong magic, version or truncated',
  E_PARAMS: 'two sketches (or a sketch and an index) made with different parameters',
  E_INPUT: 'a document or record that cannot be used',
  E_KEY: 'a key not in an index, or one inserted twice',
  E_IO: 'a file or stream that cannot be read',
  E_ENGINE: 'an optional engine (DuckDB) missing or failing',
  E_ABORTED: 'a run cancelled through its AbortSignal',
} as const);

/** One of the codes of {@link ERROR_CODES}. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** An error with a stable `code`; `detail` carries machine-readable context (option name, record location…). */
export class ResembleError extends Error {
  readonly code: ErrorCode;
  readonly detail: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, detail: Record<string, unknown> = {}) {
    super(message);
    this.name = 'ResembleError';
    this.code = code;
    this.detail = detail;
  }
}

/** Rejects an option value: `expected integer 1..64 for w, got 0`. */
export function optionError(name: string, expected: string, got: unknown): ResembleError {
  const shown = typeof got === 'bigint' ? `${got}n` : typeof got === 'string' ? JSON.stringify(got) : String(got);
  return new ResembleError('E_OPTION', `expected ${expected} for ${name}, got ${shown}`, { option: name, expected, got });
}

/** Checks an integer option in [min, max]; returns it or `fallback` when undefined. */
export function intOption(name: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw optionError(name, `integer ${min}..${max}`, value);
  }
  return value;
}

/** Checks a number option in [min, max]; returns it or `fallback` when undefined. */
export function numberOption(name: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw optionError(name, `number ${min}..${max}`, value);
  }
  return value;
}

/** Checks a string option against its allowed values. */
export function enumOption<T extends string>(name: string, value: unknown, fallback: T, allowed: readonly T[]): T {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw optionError(name, `one of ${allowed.join('|')}`, value);
  }
  return value as T;
}

/** Rejects option keys that are not known: every option is used or rejected. */
export function rejectUnknown(options: object | undefined, known: readonly string[], where: string): void {
  if (!options) return;
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw new ResembleError('E_OPTION', `unknown option ${JSON.stringify(key)} for ${where}; known: ${known.join(', ')}`, { option: key });
  }
}

/** Throws E_ABORTED when the signal has fired (a run checks between documents and stages). */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ResembleError('E_ABORTED', 'the run was aborted', { reason: signal.reason instanceof Error ? signal.reason.message : signal.reason });
}
