// resemble's core entry (`web-resemble/core`, and the heart of the root entry): no Node built-ins, so
// the browser build stays clean. It holds what a first script needs: `init`, the sketches and their
// two measures, the index and its file, and the errors. The algorithm steps (clusters of a sketch set,
// shingles, fingerprints, chunking, serialization, …) are in `web-resemble/advanced` (src/advanced-core.ts);
// docs/architecture.md says what goes where, and test/bundle/surface.test.ts pins both lists.
// `await init()` once; every other call is synchronous.
export { init, initSync, type InitOptions, type WasmSource } from './wasm/loader.js';
// Sketches, their estimates and the parameters options resolve to (a SketchSet is what sketchMany
// returns; its class is in advanced).
export {
  sketch, sketchMany, resemblance, containment, resolveSketchOptions, type SketchParams, type SketchSet, type Sketch, type SketchOptions,
  type SketchManyOptions, type DocInput
} from './sketch/index.js';
export { ResembleError, ERROR_CODES, type ErrorCode } from './errors.js';
export type { Document, ReadError, RecordOrigin } from './graph/document.js';
// The online index and its persistence.
export {
  ResembleIndex, type IndexOptions, type DocumentMeta, type QueryOptions, type QueryHit, type AddResult,
  saveIndex, loadIndex, type LoadIndexOptions
} from './cluster/index.js';
