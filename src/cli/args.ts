/**
 * Argument parsing for `resemble` with node:util parseArgs: it is built into Node (no dependency to
 * audit or bundle), typed, and covers what the CLI needs (long and short flags, strings, booleans,
 * repeated flags, positionals, strict rejection of unknown flags). Flag values arrive as strings;
 * the helpers below turn them into numbers with the same coded errors as the library options.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { enumOption, intOption, numberOption, optionError, ResembleError } from '../errors.js';
import type { ReadOptions } from '../io/options.js';
import { S_LIMITS, W_LIMITS, type SketchOptions } from '../sketch/options.js';
import type { Command, CommandContext } from './command.js';

/** The output formats every command writes. */
export type OutputFormat = 'jsonl' | 'json' | 'csv';
/** Every output format, for validation. */
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['jsonl', 'json', 'csv'];

/** Flags every command takes, added by main to the command's own. */
export const SHARED_OPTIONS = {
  out: { type: 'string', short: 'o' },
  format: { type: 'string', short: 'f' },
  quiet: { type: 'boolean', short: 'q' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

/** Help text for the shared flags, appended to every command's usage (`sharedUsage` gives a command's own --format line). */
export const SHARED_USAGE = sharedUsage();

/** Takes a command (or none, for `resemble --help`); returns the shared flags' help, its --format line naming what that command takes. */
export function sharedUsage(command?: Pick<Command, 'formats'>): string {
  const accepted = command?.formats?.accepted ?? OUTPUT_FORMATS;
  const unset = command?.formats?.unset ?? 'jsonl';
  const format = `  -f, --format FORMAT   ${accepted.join(' | ')} (default: ${unset})${command === undefined ? '; each command\'s --help says which it takes' : ''}`;
  return `Shared flags:
  -o, --out FILE        write results to FILE (default: stdout)
${format}
  -q, --quiet           no progress bar, summary line or read errors on stderr
  -h, --help            show this help`;
}

/** Takes a command and its arguments (after the command name); returns parsed values and positionals, or throws E_OPTION. */
export function parseCommandArgs(command: Command, args: string[]): Pick<CommandContext, 'values' | 'positionals'> {
  for (const name of Object.keys(command.options)) {
    if (name in SHARED_OPTIONS) throw new ResembleError('E_OPTION', `command ${command.name} redefines the shared flag --${name}`);
  }
  const options = { ...command.options, ...SHARED_OPTIONS };
  try {
    const { values, positionals } = parseArgs({ args: joinNegativeValues(args, options), options, allowPositionals: true, strict: true });
    return { values: values as CommandContext['values'], positionals };
  } catch (e) {
    // parseArgs' messages end with advice about '--'; the first sentence says what was wrong.
    const first = (e as Error).message.split(/\.\s/)[0];
    throw new ResembleError('E_OPTION', first, { argv: args });
  }
}

const NEGATIVE_NUMBER = /^-(\d|\.\d|Infinity|NaN)/;

/**
 * Takes arguments and the flag definitions; returns them with a negative number after a flag that
 * takes a value joined to it (`--threshold -1` → `--threshold=-1`), so it reaches the range check
 * and gets "expected number 0..1, got -1" instead of parseArgs' "argument is ambiguous".
 */
export function joinNegativeValues(args: readonly string[], options: NonNullable<ParseArgsConfig['options']>): string[] {
  const takesValue = (arg: string): boolean => {
    if (arg.startsWith('--') && !arg.includes('=')) return options[arg.slice(2)]?.type === 'string';
    if (/^-[A-Za-z]$/.test(arg)) return Object.values(options).some((o) => o.short === arg[1] && o.type === 'string');
    return false;
  };
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    if (takesValue(arg) && i + 1 < args.length && NEGATIVE_NUMBER.test(args[i + 1])) {
      out.push(`${arg.startsWith('--') ? arg : `--${Object.entries(options).find(([, o]) => o.short === arg[1])![0]}`}=${args[i + 1]}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** Takes parsed values (and the command, whose `formats` may narrow them); returns the --format (default jsonl), or throws E_OPTION. */
export function formatOf(values: CommandContext['values'], command?: Pick<Command, 'formats'>): OutputFormat {
  return enumOption('--format', values.format, 'jsonl', command?.formats?.accepted ?? OUTPUT_FORMATS);
}

function stringFlag(values: CommandContext['values'], name: string): string | undefined {
  const v = values[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw optionError(`--${name}`, 'a value', v);
  return v;
}

function toNumber(name: string, raw: string): number {
  const n = raw.trim() === '' ? NaN : Number(raw);
  if (!Number.isFinite(n)) throw optionError(`--${name}`, 'a number', raw);
  return n;
}

/** Takes parsed values and a flag name; returns it as an integer in [min, max], or `fallback` when absent. */
export function intFlag(values: CommandContext['values'], name: string, fallback: number, min: number, max: number): number {
  const raw = stringFlag(values, name);
  if (raw === undefined) return fallback;
  const n = toNumber(name, raw);
  // The error shows the value as typed: 18446744073709551616, not its rounded double.
  if (!Number.isInteger(n) || n < min || n > max) throw optionError(`--${name}`, `integer ${min}..${max}`, raw);
  return intOption(`--${name}`, n, fallback, min, max);
}

/** Takes parsed values and a flag name; returns it as a number in [min, max], or `fallback` when absent. */
export function numberFlag(values: CommandContext['values'], name: string, fallback: number, min: number, max: number): number {
  const raw = stringFlag(values, name);
  if (raw === undefined) return fallback;
  const n = toNumber(name, raw);
  if (n < min || n > max) throw optionError(`--${name}`, `number ${min}..${max}`, raw);
  return numberOption(`--${name}`, n, fallback, min, max);
}

/** Takes parsed values and a flag name; returns it if one of `allowed`, or `fallback` when absent. */
export function enumFlag<T extends string>(values: CommandContext['values'], name: string, fallback: T, allowed: readonly T[]): T {
  return enumOption(`--${name}`, stringFlag(values, name), fallback, allowed);
}

/** Takes parsed values and a flag name; returns its string value, or `fallback` when absent. */
export function stringOf(values: CommandContext['values'], name: string, fallback?: string): string | undefined {
  return stringFlag(values, name) ?? fallback;
}

/** Flags of the commands that make sketches; parsed by `sketchOptionsOf`. */
export const SKETCH_FLAGS = {
  w: { type: 'string' },
  unit: { type: 'string' },
  markup: { type: 'string' },
  kind: { type: 'string' },
  s: { type: 'string' },
  m: { type: 'string' },
  seed: { type: 'string' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

/** Help text for SKETCH_FLAGS. */
export const SKETCH_USAGE = `Sketch flags:
  --w N                 shingle width in tokens (characters with --unit char), ${W_LIMITS.min}..${W_LIMITS.max} (default ${W_LIMITS.default})
  --unit word|char      shingle unit (default word)
  --markup html|text    html drops tags, scripts and styles before tokenizing; text keeps every byte (default html)
  --kind min|mod|adaptive   MIN_s (fixed size), MOD_m (grows with the page) or adaptive MOD_2^i (default min)
  --s N                 MIN_s sketch size, ${S_LIMITS.min}..${S_LIMITS.max} (default ${S_LIMITS.default}; kind min only)
  --m N                 MOD_m modulus (default 25; kind mod only)
  --seed N              seed of the shingle permutation, decimal or 0x hex (default 0)`;

/** Takes parsed values; returns the sketch options they set (unset flags left to the library defaults). */
export function sketchOptionsOf(values: CommandContext['values']): SketchOptions {
  const o: SketchOptions = {};
  if (values.w !== undefined) o.w = intFlag(values, 'w', W_LIMITS.default, W_LIMITS.min, W_LIMITS.max);
  if (values.unit !== undefined) o.unit = enumFlag(values, 'unit', 'word', ['word', 'char'] as const);
  if (values.markup !== undefined) o.markup = enumFlag(values, 'markup', 'html', ['html', 'text'] as const);
  if (values.kind !== undefined) o.kind = enumFlag(values, 'kind', 'min', ['min', 'mod', 'adaptive'] as const);
  if (values.s !== undefined) o.s = intFlag(values, 's', S_LIMITS.default, S_LIMITS.min, S_LIMITS.max);
  if (values.m !== undefined) o.m = intFlag(values, 'm', 25, 1, 2 ** 32);
  const seed = stringFlag(values, 'seed');
  if (seed !== undefined) {
    const expected = 'an integer 0..2^64−1 (decimal or 0x hex)';
    if (!/^(\d+|0x[0-9a-f]+)$/i.test(seed.trim())) throw optionError('--seed', expected, seed);
    const value = BigInt(seed.trim());
    if (value >= 1n << 64n) throw optionError('--seed', expected, seed);
    o.seed = value;
  }
  return o;
}

/** Flags of the commands that read crawls; parsed by `readerOptionsOf`. */
export const READER_FLAGS = {
  'input-format': { type: 'string' },
  'max-record': { type: 'string' },
  'follow-symlinks': { type: 'boolean' },
  'any-scheme': { type: 'boolean' },
  'all-text': { type: 'boolean' },
  'id-field': { type: 'string' },
  'text-field': { type: 'string' },
  'html-field': { type: 'string' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

/** Help text for READER_FLAGS. */
export const READER_USAGE = `Input flags:
  -                     as an INPUT: read standard input (its format sniffed, or --input-format)
  --input-format F      read every INPUT as F: warc | jsonl | urls | html | folder (default: from the
                        name, else the first bytes: WARC/, JSON objects, URLs; else one document);
                        warc reads ARC files and WACZ packages too (by their first bytes)
  --max-record MiB      cap on one record after inflating (a WARC record, a JSONL line, a file, an
                        HTTP body); larger ones are reported and skipped. Memory follows it (default 32)
  --follow-symlinks     follow links inside a folder that lead outside it (default: reported, skipped)
  --any-scheme          keep WARC records whose target is not an http(s) URL (default: reported, skipped)
  --all-text            keep a web crawl's stylesheets, scripts, JSON and robots.txt as pages (default:
                        WARC records of those types are counted as skipped, not-page, by content type)
  --id-field NAME       JSONL field naming each record: a URL, or any id (then the URL is id:<id>) (default url);
                        a dotted name reaches into nested objects (metadata.url, as datatrove and Dolma write)
  --text-field NAME     JSONL field holding plain text (default text; dotted names too)
  --html-field NAME     JSONL field holding HTML, tried first (default html; dotted names too)`;

const INPUT_FORMATS = ['warc', 'jsonl', 'urls', 'html', 'folder'] as const;

/** Takes parsed values; returns the reader options the input flags set (unset flags left to the readers' defaults). */
export function readerOptionsOf(values: CommandContext['values']): ReadOptions {
  const o: ReadOptions = {};
  if (values['input-format'] !== undefined) {
    const f = enumFlag(values, 'input-format', 'jsonl', INPUT_FORMATS);
    o.kind = f === 'html' ? 'file' : f;
  }
  if (values['max-record'] !== undefined) o.maxRecordBytes = Math.round(numberFlag(values, 'max-record', 32, 1 / 1024, 1024) * (1 << 20));
  if (values['follow-symlinks'] === true) o.followSymlinks = true;
  if (values['any-scheme'] === true) o.anyScheme = true;
  if (values['all-text'] === true) o.allText = true;
  for (const [flag, key] of [['id-field', 'idField'], ['text-field', 'textField'], ['html-field', 'htmlField']] as const) {
    const v = stringFlag(values, flag);
    if (v === undefined) continue;
    if (v === '') throw optionError(`--${flag}`, 'a field name', v);
    o[key] = v;
  }
  return o;
}
