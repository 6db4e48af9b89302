// The strict-CSP browser entry: the same API as ./browser.ts, but `init()` fetches resemble.wasm
// (beside this module by default) instead of decoding inlined base64. The local `init` shadows the
// one re-exported from the core, so the bundler drops the inlined bytes.
export * from './browser.js';
export { init } from './wasm/loader-external.js';
