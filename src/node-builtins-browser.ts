// What the browser build puts where a module imports a Node built-in (rollup.config.mjs): the
// entry points carry their Node-only paths (files, temporary folders, gzip, DuckDB) into the
// browser, where pages come in memory and never reach them. The two calls that mean something in
// a page answer as there (the cores, and no temporary folder); any other is E_IO naming the call.
import { ResembleError } from './errors.js';

/** Takes a built-in's or a Node-only package's name (`node:fs`, `warcio`); returns what stands for it in a browser: any function of it throws E_IO naming it, `os.availableParallelism answers. */
export function nodeBuiltin(name: string): Record<string, unknown> {
  const own: Record<string, unknown> = name === 'node:os'
    ? { availableParallelism: () => (typeof navigator !== 'undefined' && navigator.hardwareConcurrency > 0 ? navigator.hardwareConcurrency : 4) }
    : {};
  return new Proxy(own, {
    get(target, key) {
      if (typeof key !== 'string') return undefined;
      if (key in target) return target[key];
      return function nodeOnly() {
        throw new ResembleError('E_IO', `${name}: ${key} needs Node: in a browser, give pages or files in memory`, { call: `${name}.${key}` });
      };
    },
  });
}
