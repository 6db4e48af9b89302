/** The crawl readers (Node only): wget mirror folders, WARC, JSONL, URL lists, and the HTML helpers they share. */
export { readCrawl, readBatches, loadCrawl, type BatchOptions, type DocumentBatch, detectKind, inputSize, readSingleFile, type LoadedCrawl, type LoadOptions, type SkipCounts } from './crawl.js';
export { readFolder, mirrorPathToUrl } from './folder.js';
export { readWarc, readWarcStreaming } from './warc.js';
export { readJsonl } from './jsonl.js';
export { readUrlList } from './url-list.js';
export { sniffCharset } from './charset-sniff.js';
export { decodeHtml, detectCharset, canonicalCharset, charsetFromContentType, type DecodedHtml, type CharsetSource } from './charset.js';
export { extractLinks } from './links.js';
export { looksBinary, classifyContent, contentTypeFromName, sniffKind } from './sniff.js';
export { fileBytes, type FileBytes } from './file-bytes.js';
export { gunzipPieces, type Piece, type Damage } from './gunzip.js';
export { ByteReader } from './byte-reader.js';
export { openInput, STDIN } from './source.js';
export { INPUT_KINDS, SKIP_REASONS, DEFAULT_MAX_RECORD_BYTES, type ReadOptions, type InputKind, type SkipEvent, type SkipReason } from './options.js';
export { urlVariant, VARIANT_RULES, HOST_RULES, type UrlVariant, type VariantRule } from './url-variants.js';
export {
  CrawlPhenomena, phenomenaSummary, phenomenaRecords, redirectMap, bodyKey, DEFAULT_SOFT_404_PATHS, ROLE_PAGE, ROLE_VARIANT, ROLE_SOFT_404,
  type CrawlPhenomenaOptions, type PhenomenaReport, type VariantRecord, type Soft404Record, type Soft404Host, type HostAliasRecord, type RedirectRecord,
} from './crawl-phenomena.js';
