import type { Command } from '../command.js';

/** Every subcommand, loaded only when named (so `resemble mirrors` never loads DuckDB). */
export const commands: Record<string, () => Promise<{ command: Command }>> = {
  sketch: () => import('./sketch.js'),
  compare: () => import('./compare.js'),
  dups: () => import('./dups.js'),
  dedup: () => import('./dedup.js'),
  query: () => import('./query.js'),
  index: () => import('./index-cmd.js'),
  collections: () => import('./collections.js'),
  mirrors: () => import('./mirrors.js'),
  study: () => import('./study.js'),
  signatures: () => import('./signatures.js'),
  bench: () => import('./bench.js'),
  plan: () => import('./plan.js'),
};
