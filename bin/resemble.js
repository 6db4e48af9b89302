#!/usr/bin/env node
// The `resemble` command. A development checkout (the TypeScript sources are here) runs them
// through tsx, so it never picks up a stale build; an installed package runs dist/cli.js.
import { existsSync } from 'node:fs';

// Standard output that fails: a closed pipe (`| head -1`) ends the run quietly with its exit code
// so far; any other error (a full disk, /dev/full) is one clean line on stderr and exit code 1.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  process.stderr.write(`resemble: cannot write to standard output: ${e.code === 'ENOSPC' ? 'no space left on device' : e.message}${e.code ? ` (${e.code})` : ''}\n`);
  process.exit(1);
});
// A bug must still not print a stack trace at the user; the message says what failed.
process.on('uncaughtException', (e) => {
  process.stderr.write(`resemble: internal error: ${e?.message ?? e}${e?.code ? ` (${e.code})` : ''}\n`);
  process.exit(70);
});

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
process.exitCode = await main(process.argv.slice(2));
