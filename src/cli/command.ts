import type { ParseArgsConfig } from 'node:util';

/** What a subcommand gets: its parsed flags, its positionals, and where to write. */
export interface CommandContext {
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
  /** Results (JSONL, JSON, CSV, tables): stdout or `--out FILE`. */
  out: { write(chunk: string): void };
  /** Diagnostics, progress and the summary line: stderr. */
  err: { write(chunk: string): void };
  /** True when stderr is a TTY and --quiet was not given: draw progress bars. */
  progress: boolean;
  quiet: boolean;
}

/**
 * One subcommand of `resemble`: `src/cli/commands/<name>.ts` exports `command`.
 * `run` returns the exit code: 0 ok, 1 nothing usable was read, 2 bad arguments.
 */
export interface Command {
  name: string;
  /** One line for `resemble --help`. */
  summary: string;
  /** Usage text for `resemble <name> --help`: synopsis, every flag with its default. */
  usage: string;
  /** node:util parseArgs options (the shared --out, --format, --quiet, --help are added by main). */
  options: NonNullable<ParseArgsConfig['options']>;
  /** Flags of earlier versions and the message naming what replaced each (`--cap` → `is now --common-cap`): rejected with it, exit 2. */
  renamed?: Record<string, string>;
  /**
   * The --format values the command takes (default jsonl, json and csv) and what it prints without
   * one (default "jsonl"; study "markdown tables"): its help's --format line is made from them and
   * any other value is refused before work starts.
   */
  formats?: { accepted: readonly ('jsonl' | 'json' | 'csv')[]; unset?: string };
  run(ctx: CommandContext): Promise<number>;
}
