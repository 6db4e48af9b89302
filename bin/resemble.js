#!/usr/bin/env node
// The `resemble` command. A development checkout (the TypeScript sources are here) runs them
// through tsx, so it never picks up a stale build; an installed package runs dist/cli.js.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/main.ts', import.meta.url);
let main;
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import(source.href));
} else {
  ({ main } = await import(new URL('../dist/cli.js', import.meta.url).href));
}
// exitCode rather than process.exit(): pending stdout writes to a pipe are flushed first.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});
process.exitCode = await main(process.argv.slice(2));
