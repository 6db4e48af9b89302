#!/usr/bin/env node
// The `resemble` command. An installed package runs the built dist/cli.js; a development checkout
// (no build yet) runs the TypeScript sources through tsx.
import { existsSync } from 'node:fs';

const built = new URL('../dist/cli.js', import.meta.url);
let main;
if (existsSync(built)) {
  ({ main } = await import(built.href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
// exitCode rather than process.exit(): pending stdout writes to a pipe are flushed first.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});
process.exitCode = await main(process.argv.slice(2));
