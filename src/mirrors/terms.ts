/**
 * Term selection of the URL-string algorithms (Bharat et al. §3.2): hostname substrings,
 * whole paths, path prefixes and positional word bigrams. Paths are written without the
 * leading '/', as in the paper's example `conferences/dl99/advanceprogram.html`.
 */
import { hostLiteralIp } from './ip.js';

/**
 * Hostname terms (§3.2.1): every substring delimited by '.' or the ends of the name, i.e. every
 * run of consecutive labels. A host given as an IP address yields its first 2, 3 and 4 octets
 * (for IPv6: its first 2, 3, 4 and 8 hextets). A port, when present, stays on the last label.
 */
export function hostTerms(host: string): string[] {
  const ip = hostLiteralIp(host);
  if (ip) {
    const parts = ip.version === 4 ? ip.parts.map(String) : ip.parts.map((h) => h.toString(16));
    const lengths = ip.version === 4 ? [2, 3, 4] : [2, 3, 4, 8];
    return lengths.map((n) => parts.slice(0, n).join(ip.version === 4 ? '.' : ':'));
  }
  const labels = host.split('.').filter((l) => l !== '');
  const out: string[] = [];
  for (let i = 0; i < labels.length; i++) {
    for (let j = i + 1; j <= labels.length; j++) out.push(labels.slice(i, j).join('.'));
  }
  return out;
}

/** The number of segments of a hostname term, the paper's len(t): labels split at '.' (hextets at ':' for IPv6). */
export function termLength(term: string): number {
  return term.split(term.includes(':') && !term.includes('.') ? ':' : '.').length;
}

/** Prefix terms (§3.2.3): the prefixes of a path that end in '/' or end the path. The root path yields none. */
export function prefixTerms(path: string): string[] {
  const out: string[] = [];
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) out.push(path.slice(0, i + 1));
  if (path !== '' && !path.endsWith('/')) out.push(path);
  return out;
}

/**
 * The word list of a path (§3.2.4): split at '/' and '.', non-alphanumeric characters removed,
 * every run of digits replaced by '*' (an effect like stemming: `dl99` → `dl*`). Words left empty
 * are dropped.
 */
export function pathWords(path: string): string[] {
  const out: string[] = [];
  for (const raw of path.split(/[/.]/)) {
    const w = raw.replace(/[^A-Za-z0-9]/g, '').replace(/[0-9]+/g, '*');
    if (w !== '') out.push(w);
  }
  return out;
}

/** Positional word bigrams (§3.2.4): successive word pairs with the first word's position, `conferences_dl*_0`. */
export function shingleTerms(path: string): string[] {
  const words = pathWords(path);
  const out: string[] = [];
  for (let i = 0; i + 1 < words.length; i++) out.push(`${words[i]}_${words[i + 1]}_${i}`);
  return out;
}

/**
 * How many terms a host with p URLs keeps for prefix, shingles and hconn: 10·log p (§3.2.3,
 * §3.4), rounded up, at least 1. Logarithms are base 10 throughout: the paper's prefix scaling
 * 1 / (0.1 + 0.15 (log n1 + log n2)) equals 1 for hosts of about 1000 URLs only in base 10.
 */
export function selectionSize(p: number): number {
  return Math.max(1, Math.ceil(10 * Math.log10(Math.max(1, p)) - 1e-9));
}
