// `resemble` from the built package (dist/cli.js) with this process's arguments: the benchmarks
// time the CLI as users run it (bin/resemble.js in a checkout runs the sources through tsx).
//
//   node bench/dist-cli.mjs dups CRAWL.jsonl --workers 2
const { main } = await import(new URL('../dist/cli.js', import.meta.url).href);
process.exitCode = await main(process.argv.slice(2));
