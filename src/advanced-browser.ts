// `web-resemble/advanced` in browsers: the browser root entry (re-exported: one bundle, so one
// WebAssembly instance serves both, and `await init()` from here is the only init a page needs) and
// the steps that need no Node built-ins (src/advanced-core.ts).
export * from './browser.js';
export * from './advanced-core.js';
// The root has SketchSet as a type only: here it is the class.
export { SketchSet } from './advanced-core.js';
