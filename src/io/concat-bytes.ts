// One small helper the readers share (the gzip pieces, the byte reader, WARC records, stdin).

/** Concatenates byte arrays into one (no copy for one part). */
export function concatBytes(parts: readonly Uint8Array[], total = parts.reduce((n, p) => n + p.length, 0)): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
