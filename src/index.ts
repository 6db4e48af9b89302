// resemble's core entry: no Node built-ins, so the browser build stays clean.
// `await init()` once; every other call is synchronous.
export { init, initSync, compiledModule, isInitialized, kernelBuild, simdSupported, type InitOptions, type WasmSource } from './wasm/loader.js';
export * from './sketch/index.js';
export { ResembleError, type ErrorCode } from './errors.js';
export type { Document, ReadError } from './graph/document.js';
export * from './collections/index.js';
export * from './cluster/index.js';
// The columns clustering reads (a SketchSet satisfies them); named apart from the sketch's own SketchColumns.
export type { SketchColumns as ClusterColumns } from './cluster/columns.js';
