/**
 * Progress on stderr while a crawl is read: a cli-progress bar (documents/s, MB/s, and an ETA when
 * the total size is known) drawn only when stderr is a TTY and --quiet was not given, and a
 * one-line summary at the end. Nothing here writes to stdout, so results can be piped.
 */
import { createRequire } from 'node:module';
import type { CommandContext } from './command.js';

interface Bar {
  start(total: number, value: number, payload?: object): void;
  update(value: number, payload?: object): void;
  render?(): void;
  stop(): void;
}
interface BarParams {
  value: number;
  total: number;
  eta: number;
  startTime: number;
}
interface CliProgress {
  SingleBar: new (options: object) => Bar;
  Format: { BarFormat(progress: number, options: object): string; TimeFormat(t: number, options: object, round: number): string };
}

/** What a reader has got through so far (and, in a streaming pipeline, how many pages are sketched). */
export interface ProgressState {
  documents: number;
  bytes: number;
  sketched?: number;
}

/** A running progress display; `stop()` erases nothing and must be called once. */
export interface Progress {
  update(state: ProgressState): void;
  /**
   * Shows a later stage instead of the read bar: `label` and what it has done so far, drawn at once
   * when the stage is new, else with the bar's next frame (a function is called only then: a stage
   * may report every page).
   */
  stage(label: string, text: string | (() => string)): void;
  stop(): void;
}

const MB = 1024 * 1024;
const SILENT: Progress = { update() {}, stage() {}, stop() {} };

/**
 * Takes a count; returns it with thousands separators (`12,345`), as `toLocaleString('en-US')`
 * writes it. Safe integers are grouped here: the first toLocaleString call loads the locale data,
 * some 80 ms that every command printing its summary line would pay at its end.
 */
export function count(n: number): string {
  const r = Math.round(n);
  if (!Number.isSafeInteger(r) || Object.is(r, -0)) return r.toLocaleString('en-US');
  const digits = String(Math.abs(r));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += ',' + digits.slice(i, i + 3);
  return r < 0 ? '-' + out : out;
}

/** Takes a bar's parameters and payload; returns the bar line (exported for tests of the wording). */
export function progressLine(label: string, state: ProgressState, seconds: number, total: number | undefined, bar: string, eta: string): string {
  const rate = (x: number) => (seconds > 0 ? x / seconds : 0);
  const docs = state.sketched === undefined ? `${state.documents} docs` : `${count(state.documents)} pages read, ${count(state.sketched)} sketched`;
  const base = `${label} ${docs} | ${rate(state.documents).toFixed(0)} docs/s | ${rate(state.bytes / MB).toFixed(1)} MB/s`;
  if (!total) return base;
  return `${label} ${bar} ${Math.min(100, (100 * state.bytes) / total).toFixed(0)}% | ${base.slice(label.length + 1)} | ETA ${eta}`;
}

/** Takes the command context, a label and the total input bytes (if known); returns a progress display (silent unless ctx.progress). */
export function startProgress(ctx: CommandContext, label: string, totalBytes?: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!ctx.progress) return SILENT;
  // Loaded only when a bar is drawn; createRequire because cli-progress ships CommonJS without types.
  const cliProgress = createRequire(import.meta.url)('cli-progress') as CliProgress;
  let state: ProgressState = { documents: 0, bytes: 0 };
  let override: { name: string; text: string | (() => string) } | undefined;
  const bar = new cliProgress.SingleBar({
    stream,
    hideCursor: true,
    clearOnComplete: true, // the summary line takes its place
    etaBuffer: 50,
    fps: 5,
    format: (options: object, params: BarParams) => {
      if (override !== undefined) return `${override.name} ${typeof override.text === 'function' ? override.text() : override.text}`;
      const seconds = (Date.now() - params.startTime) / 1000;
      const progress = params.total > 0 ? Math.min(1, params.value / params.total) : 0;
      const eta = cliProgress.Format.TimeFormat(params.eta, options, 1);
      return progressLine(label, state, seconds, totalBytes, cliProgress.Format.BarFormat(progress, options), eta);
    },
  });
  bar.start(totalBytes && totalBytes > 0 ? totalBytes : 1, 0);
  return {
    update(next) {
      state = next;
      bar.update(totalBytes ? Math.min(next.bytes, totalBytes) : 0);
    },
    stage(name, text) {
      const fresh = override?.name !== name;
      override = { name, text };
      if (fresh) bar.render?.();
    },
    stop() {
      bar.stop();
    },
  };
}

/** What a finished read reports in its summary line. */
export interface ReadSummary {
  documents: number;
  bytes: number;
  errors: number;
  skipped: Record<string, number>;
  seconds: number;
}

/** Takes the totals of a read; returns the one-line summary: `read 120 documents (3.4 MB) in 0.8 s; 2 errors; 3 skipped (binary 3)`. */
export function summaryLine(s: ReadSummary): string {
  const parts = [`read ${s.documents} document${s.documents === 1 ? '' : 's'} (${(s.bytes / MB).toFixed(1)} MB) in ${s.seconds.toFixed(1)} s`];
  parts.push(`${s.errors} error${s.errors === 1 ? '' : 's'}`);
  const reasons = Object.entries(s.skipped).filter(([, n]) => n > 0);
  const skipped = reasons.reduce((n, [, k]) => n + k, 0);
  parts.push(skipped === 0 ? '0 skipped' : `${skipped} skipped (${reasons.map(([r, n]) => `${r} ${n}`).join(', ')})`);
  return parts.join('; ');
}
