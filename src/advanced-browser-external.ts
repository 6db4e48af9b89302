// `web-resemble/advanced/browser-external`, for pages under a strict Content-Security-Policy: the same
// API as ./advanced-browser.ts, but `init()` fetches resemble.wasm (beside this module by default)
// instead of decoding inlined base64. The local `init` shadows the re-exported one, so the bundler
// drops the inlined bytes.
export * from './advanced-browser.js';
export { init } from './wasm/loader-external.js';
