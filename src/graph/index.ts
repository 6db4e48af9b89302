/** The web graph of a crawl and the document types the readers yield. */
export { WebGraph, type WebGraphOptions } from './web-graph.js';
export { normalizeUrl, hostOfUrl } from './url.js';
export { csrFromRows, reverseCsr, type Csr } from './csr.js';
export { utf8Bytes, type Document, type ReadError, type RecordOrigin } from './document.js';
