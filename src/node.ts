// The Node entry: the core and near-duplicate clustering (as in the browser entry), the worker
// pool on worker_threads, the web graph and the crawl readers, which use Node built-ins. Browsers
// resolve the package to ./browser.ts through its "browser" export condition.
export * from './index.js';
export * from './template/index.js';
export { createPool, type NodePoolOptions, type Pool, type PoolOptions, type FingerprintManyOptions } from './workers/node.js';
export * from './graph/index.js';
export * from './io/index.js';
export * from './mirrors/index.js';
export * from './study/index.js';
export * from './signatures/index.js';
export { renderSvg, plotSeries, type PlotSeries, type PlotOptions, type VegaLiteSpec } from './report/plot.js';
export * from './scale/index.js';
