// One `resemble dups` run for bench/pipeline.bench.ts, in a process of its own, as users run it:
// plain JavaScript on the built package (dist/), no TypeScript loader in the process. The output is
// discarded; prints one JSON line: seconds, CPU seconds, peak RSS in MB, and dups' summary line.
//
//   node bench/pipeline-child.mjs CRAWL.jsonl [dups flags]
//
// RESEMBLE_CLI names another build's cli.js (another checkout's dist/cli.js) to time instead.
import { pathToFileURL } from 'node:url';
const cli = process.env.RESEMBLE_CLI ? pathToFileURL(process.env.RESEMBLE_CLI) : new URL('../dist/cli.js', import.meta.url);
const { main } = await import(cli.href);
let err = '';
const t = performance.now();
const code = await main(['dups', ...process.argv.slice(2), '--out', '/dev/null'], { stdout: { write: () => true }, stderr: { write: (c) => (err += c), isTTY: false } });
const seconds = (performance.now() - t) / 1000;
if (code !== 0) { process.stderr.write(err); process.exit(code); }
const u = process.resourceUsage();
process.stdout.write(JSON.stringify({ seconds, cpu: (u.userCPUTime + u.systemCPUTime) / 1e6, rssMB: u.maxRSS / 1024, out: err.trim().split('\n').pop() }) + '\n');
process.exit(0);
