/**
 * `resemble <command> [flags] [inputs]`: finds the command in the registry, loads it on demand,
 * parses its flags with the shared ones, opens --out, runs it and maps failures to exit codes:
 * 0 success, 1 nothing usable was read (or a command failed), 2 bad arguments.
 */
import { ResembleError } from '../errors.js';
import { loadPlotting } from '../report/plot.js';
import { formatOf, parseCommandArgs, READER_USAGE, SHARED_USAGE, sharedUsage } from './args.js';
import type { Command, CommandContext } from './command.js';
import { commands } from './commands/index.js';
import { checkOutput, gatheredSink, openAtomic, type AtomicFile, type GatheredSink } from './output.js';
import { version } from './version.js';

/** A text stream main writes to; `isTTY` decides whether progress bars are drawn. */
export interface TextStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

/** Command modules by name, each loaded only when named. */
export type CommandRegistry = Record<string, () => Promise<{ command: Command }>>;

/** Where main writes and what it dispatches to: defaults are process.stdout/stderr and the registry in commands/index.ts (tests pass their own). */
export interface MainStreams {
  stdout?: TextStream;
  stderr?: TextStream;
  registry?: CommandRegistry;
}

async function loadCommand(registry: CommandRegistry, name: string): Promise<Command> {
  const mod = await registry[name]();
  if (!mod?.command || typeof mod.command.run !== 'function') throw new Error(`its module does not export a command`);
  return mod.command;
}

/** Takes the registry; returns `resemble --help`: usage and every command with its summary (loaded to read it). */
async function generalHelp(registry: CommandRegistry): Promise<string> {
  const names = Object.keys(registry);
  const loaded = await Promise.allSettled(names.map((n) => loadCommand(registry, n)));
  const width = Math.max(...names.map((n) => n.length));
  const rows = names.map((name, i) => {
    const r = loaded[i];
    return `  ${name.padEnd(width)}  ${r.status === 'fulfilled' ? r.value.summary : '(not available in this build)'}`;
  });
  return [
    'resemble: find duplicated content on the web (near-duplicate pages, replicated collections, mirrored hosts)',
    'npm package web-resemble: `npx resemble` in a project that depends on it.',
    'Not on the npm registry yet: `npm install web-resemble` and `npx web-resemble` answer E404. Install it',
    'from git (`npm install <git URL>`) or a tarball (`npm pack` in a checkout, `npm install ./web-resemble-<version>.tgz`);',
    'once published, `npm install web-resemble`, and `npx web-resemble` anywhere.',
    '',
    'Usage: resemble <command> [flags] [inputs...]',
    '       resemble <command> --help     flags of one command',
    '       resemble --version',
    '',
    'Commands:',
    ...rows,
    '',
    'Inputs: a wget mirror folder, .warc / .warc.gz, .jsonl / .jsonl.gz ({url, html|text, date?, ip?}),',
    'or a URL list (.txt / .urls: one URL per line, optional IP column).',
    '',
    SHARED_USAGE,
    '',
  ].join('\n');
}

/** Flags naming where a run writes, not what it reads (--temp-dir: DuckDB's database and spill files). */
const WRITTEN = new Set(['out', 'temp-dir']);

/** Takes parsed values and positionals; returns every path the run may read (positionals and string flag values but those of WRITTEN), for `checkOutput`. */
export function pathsRead(values: CommandContext['values'], positionals: readonly string[]): string[] {
  const paths = [...positionals];
  for (const [name, v] of Object.entries(values)) {
    if (WRITTEN.has(name)) continue;
    for (const one of Array.isArray(v) ? v : [v]) if (typeof one === 'string') paths.push(one);
  }
  return paths;
}

/** Takes the arguments after `resemble` (process.argv.slice(2)) and optional streams; returns the exit code. */
export async function main(argv: string[], streams: MainStreams = {}): Promise<number> {
  const stdout = streams.stdout ?? process.stdout;
  const stderr = streams.stderr ?? process.stderr;
  const registry = streams.registry ?? commands;
  const say = (stream: TextStream, text: string) => void stream.write(text.endsWith('\n') ? text : text + '\n');
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    if (name === 'help' && rest[0] !== undefined) return main([rest[0], '--help'], streams);
    say(name === undefined ? stderr : stdout, await generalHelp(registry));
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    say(stdout, version());
    return 0;
  }
  if (!Object.hasOwn(registry, name)) {
    const known = Object.keys(registry).join(', ');
    say(stderr, `resemble: unknown ${name.startsWith('-') ? 'flag' : 'command'} ${JSON.stringify(name)}; commands: ${known} (resemble --help)`);
    return 2;
  }
  let command: Command;
  try {
    command = await loadCommand(registry, name);
  } catch (e) {
    say(stderr, `resemble: the ${name} command is not available in this build (${(e as Error).message.split('\n')[0]})`);
    return 1;
  }
  let sink: AtomicFile | undefined;
  // standard output, when --out does not name a file: records gathered into one write a batch
  let gathered: GatheredSink | undefined;
  let code = 1;
  try {
    rejectRenamed(command, rest);
    const { values, positionals } = parseCommandArgs(command, rest);
    if (values.help) {
      const reading = 'input-format' in command.options ? `\n\n${READER_USAGE}` : '';
      say(stdout, `${command.usage.trimEnd()}${reading}\n\n${sharedUsage(command)}\n`);
      return 0;
    }
    formatOf(values, command);
    // A plot needs the optional packages vega and vega-lite: say so before any work, not after it.
    if (values.plot !== undefined || values.plots !== undefined) await loadPlotting();
    if (typeof values.out === 'string' && values.out !== '-') {
      checkOutput(values.out, pathsRead(values, positionals), '--out');
      sink = openAtomic(values.out);
    }
    const quiet = values.quiet === true;
    const ctx: CommandContext = {
      values,
      positionals,
      out: sink ?? (gathered = gatheredSink((chunk) => void stdout.write(chunk))),
      err: { write: (chunk: string) => void stderr.write(chunk) },
      progress: stderr.isTTY === true && !quiet,
      quiet,
    };
    code = await command.run(ctx);
    gathered?.flush();
    // The output replaces the old file only when the run succeeded: a failed run leaves no half-written file.
    if (code === 0) sink?.commit();
    return code;
  } catch (e) {
    // what the command printed before it failed comes out before the failure is said
    gathered?.flush();
    const code = e instanceof ResembleError ? e.code : undefined;
    const detail = code === undefined && !(e instanceof ResembleError) && (e as NodeJS.ErrnoException).code;
    say(stderr, `resemble ${name}: ${(e as Error).message}${detail ? ` (${detail})` : ''}`);
    if (code === 'E_OPTION') say(stderr, `(resemble ${name} --help lists the flags)`);
    return code === 'E_OPTION' ? 2 : 1;
  } finally {
    if (code !== 0) sink?.abort();
  }
}

/** Flags renamed in every command: one name for one thing (`--out FILE`, `--plots DIR`, `--common-cap N`). */
const RENAMED: Record<string, string> = {
  output: 'is now --out FILE (where results go)',
  plot: 'is now --plots DIR (a folder of SVG figures)',
  cap: 'is now --common-cap N (shingles on more pages are ignored)',
};

/** Takes a command and its arguments; throws E_OPTION (exit 2) for a flag of an earlier version, naming the one that replaced it. */
export function rejectRenamed(command: Command, args: readonly string[]): void {
  const renamed = { ...RENAMED, ...(command.renamed ?? {}) };
  for (const a of args) {
    if (a === '--') return;
    const m = /^--([^=]+)/.exec(a);
    if (!m || Object.hasOwn(command.options, m[1]) || !Object.hasOwn(renamed, m[1])) continue;
    throw new ResembleError('E_OPTION', `--${m[1]} ${renamed[m[1]]}`, { option: `--${m[1]}` });
  }
}
