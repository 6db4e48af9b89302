// What content mode costs: `resemble dups` end to end (read the crawl, sketch, cluster, write the
// records) with --content main against --content page, measured side by side in one run with
// tinybench (process CPU time, so other work on the machine weighs less), on each crawl given;
// and the sketching stage alone (learning templates + content sketches against whole-page sketches).
// Run: npx tsx bench/content/cost.ts CRAWL... [--iterations 8]   (a crawl: a wget folder, JSONL or WARC)
import { cpuUsage } from 'node:process';
import { Bench } from 'tinybench';
import { machine, machineLine } from '../../src/bench/machine.js';
import { main } from '../../src/cli/main.js';
import { utf8Bytes } from '../../src/graph/document.js';
import { hostOfUrl } from '../../src/graph/url.js';
import { loadCrawl } from '../../src/io/crawl.js';
import { init, sketchMany } from '../../src/index.js';
import { sketchWithTemplates } from '../../src/template/sketch.js';
import { parseArgs } from 'node:util';

const { values: flags, positionals: crawls } = parseArgs({ options: { iterations: { type: 'string', default: '8' } }, allowPositionals: true });
const iterations = Number(flags.iterations);
if (crawls.length === 0) { console.error('usage: cost.ts CRAWL... [--iterations 8]'); process.exit(2); }
await init();
const sink = { write: (_: string) => true };
const dups = async (crawl: string, content: string) => {
  const code = await main(['dups', crawl, '--quiet', '--content', content], { stdout: sink, stderr: sink });
  if (code !== 0) throw new Error(`dups ${crawl} --content ${content} exited ${code}`);
};
const cpuNow = () => { const u = cpuUsage(); return (u.user + u.system) / 1000; };
/** The median of each task, in task order (a task that failed throws). */
const medians = (bench: Bench) => bench.tasks.map((t) => {
  const r = t.result;
  if (r.state !== 'completed') throw new Error(`${t.name}: ${r.state}${'error' in r ? `: ${String((r as { error?: unknown }).error)}` : ''}`);
  return r.latency.p50;
});

console.log(machineLine(machine()));
for (const crawl of crawls) {
  const bench = new Bench({ now: cpuNow, iterations, time: 0, warmupIterations: 1 });
  // interleaved: page, main, page, main… (tinybench runs tasks one after another; two of each)
  bench.add('page', () => dups(crawl, 'page')).add('main', () => dups(crawl, 'main'));
  await bench.run();
  const [page, main_] = medians(bench);
  console.log(`${crawl}: dups --content page ${page.toFixed(0)} ms, --content main ${main_.toFixed(0)} ms (CPU, median of ${iterations}): `
    + `content mode adds ${(100 * (main_ / page - 1)).toFixed(1)}% end to end`);
  const docs = (await loadCrawl([crawl])).documents;
  const bytes = docs.map(utf8Bytes), hosts = docs.map((d) => hostOfUrl(d.url));
  const mb = bytes.reduce((a, b) => a + b.length, 0) / 1e6;
  const stage = new Bench({ now: cpuNow, iterations: iterations * 2, time: 0, warmupIterations: 1 });
  stage.add('page', () => { sketchMany(bytes); }).add('main', () => { sketchWithTemplates(bytes, hosts, { content: 'main' }); });
  await stage.run();
  const [sp, sm] = medians(stage);
  console.log(`${crawl}: sketching alone ${(mb / (sp / 1000)).toFixed(1)} MB/s whole pages, ${(mb / (sm / 1000)).toFixed(1)} MB/s content (learning included): `
    + `${(100 * (sm / sp - 1)).toFixed(1)}% more`);
}
