/**
 * Argument parsing for `resemble` with node:util parseArgs: it is built into Node (no dependency to
 * audit or bundle), typed, and covers what the CLI needs (long and short flags, strings, booleans,
 * repeated flags, positionals, strict rejection of unknown flags). Flag values arrive as strings;
 * the helpers below turn them into numbers with the same coded errors as the library options.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { enumOption, intOption, numberOption, optionError, ResembleError } from '../errors.js';
import type { SketchOptions } from '../sketch/options.js';
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

/** Help text for the shared flags, appended to every command's usage. */
export const SHARED_USAGE = `Shared flags:
  -o, --out FILE        write results to FILE (default: stdout)
  -f, --format FORMAT   jsonl | json | csv (default: jsonl)
  -q, --quiet           no progress bar, summary line or read errors on stderr
  -h, --help            show this help`;

/** Takes a command and its arguments (after the command name); returns parsed values and positionals, or throws E_OPTION. */
export function parseCommandArgs(command: Command, args: string[]): Pick<CommandContext, 'values' | 'positionals'> {
  for (const name of Object.keys(command.options)) {
    if (name in SHARED_OPTIONS) throw new ResembleError('E_OPTION', `command ${command.name} redefines the shared flag --${name}`);
  }
  try {
    const { values, positionals } = parseArgs({ args, options: { ...command.options, ...SHARED_OPTIONS }, allowPositionals: true, strict: true });
    return { values: values as CommandContext['values'], positionals };
  } catch (e) {
    // parseArgs' messages end with advice about '--'; the first sentence says what was wrong.
    const first = (e as Error).message.split(/\.\s/)[0];
    throw new ResembleError('E_OPTION', first, { argv: args });
  }
}

/** Takes parsed values; returns the --format (default jsonl), or throws E_OPTION. */
export function formatOf(values: CommandContext['values']): OutputFormat {
  return enumOption('--format', values.format, 'jsonl', OUTPUT_FORMATS);
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
  return raw === undefined ? fallback : intOption(`--${name}`, toNumber(name, raw), fallback, min, max);
}

/** Takes parsed values and a flag name; returns it as a number in [min, max], or `fallback` when absent. */
export function numberFlag(values: CommandContext['values'], name: string, fallback: number, min: number, max: number): number {
  const raw = stringFlag(values, name);
  return raw === undefined ? fallback : numberOption(`--${name}`, toNumber(name, raw), fallback, min, max);
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
  --w N                 shingle width in tokens (characters with --unit char), 1..64 (default 8)
  --unit word|char      shingle unit (default word)
  --markup html|text    html drops tags, scripts and styles before tokenizing; text keeps every byte (default html)
  --kind min|mod|adaptive   MIN_s (fixed size), MOD_m (grows with the page) or adaptive MOD_2^i (default min)
  --s N                 MIN_s sketch size, 1..4096 (default 128; kind min only)
  --m N                 MOD_m modulus (default 25; kind mod only)
  --seed N              seed of the shingle permutation, decimal or 0x hex (default 0)`;

/** Takes parsed values; returns the sketch options they set (unset flags left to the library defaults). */
export function sketchOptionsOf(values: CommandContext['values']): SketchOptions {
  const o: SketchOptions = {};
  if (values.w !== undefined) o.w = intFlag(values, 'w', 8, 1, 64);
  if (values.unit !== undefined) o.unit = enumFlag(values, 'unit', 'word', ['word', 'char'] as const);
  if (values.markup !== undefined) o.markup = enumFlag(values, 'markup', 'html', ['html', 'text'] as const);
  if (values.kind !== undefined) o.kind = enumFlag(values, 'kind', 'min', ['min', 'mod', 'adaptive'] as const);
  if (values.s !== undefined) o.s = intFlag(values, 's', 128, 1, 4096);
  if (values.m !== undefined) o.m = intFlag(values, 'm', 25, 1, 2 ** 32);
  const seed = stringFlag(values, 'seed');
  if (seed !== undefined) {
    if (!/^(\d+|0x[0-9a-f]+)$/i.test(seed.trim())) throw optionError('--seed', 'an integer 0..2^64−1 (decimal or 0x hex)', seed);
    o.seed = BigInt(seed.trim());
  }
  return o;
}
