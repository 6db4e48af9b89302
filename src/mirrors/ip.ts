/**
 * IP addresses for the IP-based algorithms (Bharat et al. §3.1): parsing, the 4-octet key (IP4)
 * and the subnet key (IP3). IPv4 is strict dotted-quad; IPv6 is normalized to eight lowercase
 * hextets, and IPv4-mapped IPv6 (`::ffff:a.b.c.d`) is read as the IPv4 address it carries.
 */

/** A parsed address: `v4` has 4 octets, `v6` has 8 hextets (each as a number). */
export interface IpAddress {
  version: 4 | 6;
  parts: number[];
}

const V4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** Parses a strict dotted-quad IPv4 address (no shorthand forms); undefined when malformed. */
export function parseIpv4(text: string): IpAddress | undefined {
  const m = V4.exec(text);
  if (!m) return undefined;
  const parts = [+m[1], +m[2], +m[3], +m[4]];
  if (parts.some((p) => p > 255)) return undefined;
  return { version: 4, parts };
}

/** Parses an IPv6 address (with `::` compression and an optional dotted IPv4 tail, brackets allowed). */
export function parseIpv6(text: string): IpAddress | undefined {
  let s = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(':') || !/^[0-9a-fA-F:.]+$/.test(s)) return undefined;
  const lastColon = s.lastIndexOf(':');
  const last = s.slice(lastColon + 1);
  if (last.includes('.')) {
    // An embedded IPv4 tail stands for the last two hextets.
    const v4 = parseIpv4(last);
    if (!v4) return undefined;
    const hex = (hi: number, lo: number) => ((hi << 8) | lo).toString(16);
    s = s.slice(0, lastColon + 1) + hex(v4.parts[0], v4.parts[1]) + ':' + hex(v4.parts[2], v4.parts[3]);
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const group = (h: string): number[] | undefined => {
    if (h === '') return [];
    const out: number[] = [];
    for (const g of h.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = group(halves[0]);
  const rest = halves.length === 2 ? group(halves[1]) : [];
  if (!head || !rest) return undefined;
  const explicit = head.length + rest.length;
  let parts: number[];
  if (halves.length === 2) {
    if (explicit > 7) return undefined;
    parts = [...head, ...new Array<number>(8 - explicit).fill(0), ...rest];
  } else {
    if (explicit !== 8) return undefined;
    parts = head;
  }
  return { version: 6, parts };
}

/** Parses an IPv4 or IPv6 address; IPv4-mapped IPv6 becomes IPv4; undefined when malformed. */
export function parseIp(text: string): IpAddress | undefined {
  const t = text.trim();
  const v4 = parseIpv4(t);
  if (v4) return v4;
  const v6 = parseIpv6(t);
  if (!v6) return undefined;
  const p = v6.parts;
  if (p[0] === 0 && p[1] === 0 && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0xffff) {
    return { version: 4, parts: [p[6] >> 8, p[6] & 255, p[7] >> 8, p[7] & 255] };
  }
  return v6;
}

/** Returns true when the text looks like an attempt at an address (digits and dots, or a colon). */
export function looksLikeIp(text: string): boolean {
  return /^[\d.]+$/.test(text) || /^\[?[0-9a-fA-F:.%]*:[0-9a-fA-F:.%]*\]?$/.test(text);
}

/** The canonical text of an address: dotted quad, or eight 4-digit lowercase hextets joined by ':'. */
export function formatIp(ip: IpAddress): string {
  return ip.version === 4 ? ip.parts.join('.') : ip.parts.map((h) => h.toString(16).padStart(4, '0')).join(':');
}

/**
 * IPv6 prefix length (in hextets) that plays the role of IPv4's first three octets in IP3: 4
 * hextets = /64, the standard IPv6 subnet (RFC 4291 §2.5.4), just as a /24 was the typical
 * IPv4 subnet the paper had in mind ("web servers on the same subnet").
 */
export const IP3_V6_HEXTETS = 4;

/** The IP3 cluster key: `a.b.c` for IPv4, the /64 prefix (4 hextets) followed by `::/64` for IPv6. */
export function subnetKey(ip: IpAddress): string {
  if (ip.version === 4) return ip.parts.slice(0, 3).join('.');
  return ip.parts.slice(0, IP3_V6_HEXTETS).map((h) => h.toString(16).padStart(4, '0')).join(':') + '::/64';
}

/** The address of a host given as an IP literal (`10.0.0.1`, `[2001:db8::1]`, with or without port); undefined otherwise. */
export function hostLiteralIp(host: string): IpAddress | undefined {
  let h = host;
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    if (end < 0) return undefined;
    return parseIp(h.slice(1, end));
  }
  const colon = h.lastIndexOf(':');
  if (colon >= 0) h = h.slice(0, colon);
  return parseIpv4(h);
}
