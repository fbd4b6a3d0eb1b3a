/**
 * Strict IPv4 / IPv6 parsing for rate-limit keys. Never throws: anything
 * that is not an address reads as null.
 * @internal
 * @module
 */

/** A parsed address: 4 bytes (IPv4) or 16 bytes (IPv6). */
export interface ParsedIp {
  version: 4 | 6;
  bytes: Uint8Array;
}

const DECIMAL_OCTET = /^(?:0|[1-9][0-9]{0,2})$/;
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

/** Dotted-quad IPv4 without leading zeros (they would be octal to some parsers). */
export function parseIpv4(text: string): Uint8Array | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const part = parts[i]!;
    if (!DECIMAL_OCTET.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    out[i] = n;
  }
  return out;
}

function hexGroups(text: string): number[] | null {
  if (text === '') return [];
  const groups = text.split(':');
  const out: number[] = [];
  for (const g of groups) {
    if (!HEX_GROUP.test(g)) return null;
    out.push(parseInt(g, 16));
  }
  return out;
}

/** IPv6 text form (RFC 4291 §2.2), with `::`, an embedded IPv4 tail and an optional `%zone`. */
export function parseIpv6(input: string): Uint8Array | null {
  let text = input;
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  if (text.length < 2 || text.length > 45) return null;
  let tail: Uint8Array | null = null;
  const lastColon = text.lastIndexOf(':');
  if (lastColon >= 0 && text.includes('.', lastColon)) {
    tail = parseIpv4(text.slice(lastColon + 1));
    if (!tail) return null;
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const gap = text.indexOf('::');
  if (gap !== text.lastIndexOf('::')) return null;
  const head = hexGroups(gap >= 0 ? text.slice(0, gap) : text);
  const rest = gap >= 0 ? hexGroups(text.slice(gap + 2)) : [];
  if (!head || !rest) return null;
  if (gap < 0 ? head.length !== 8 : head.length + rest.length > 7) return null;
  const groups = [...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest];
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    out[i * 2] = g >> 8;
    out[i * 2 + 1] = g & 0xff;
  });
  if (tail) out.set(tail, 12);
  return out;
}

function isV4Mapped(bytes: Uint8Array): boolean {
  for (let i = 0; i < 10; i++) if (bytes[i] !== 0) return false;
  return bytes[10] === 0xff && bytes[11] === 0xff;
}

/**
 * Parses one address. IPv4-mapped IPv6 (`::ffff:192.0.2.1`) reads as the
 * IPv4 address, so a client cannot get two budgets from two spellings.
 */
export function parseIp(text: string): ParsedIp | null {
  if (typeof text !== 'string' || text.length === 0 || text.length > 64) return null;
  if (!text.includes(':')) {
    const v4 = parseIpv4(text);
    return v4 ? { version: 4, bytes: v4 } : null;
  }
  const v6 = parseIpv6(text);
  if (!v6) return null;
  return isV4Mapped(v6) ? { version: 4, bytes: v6.slice(12) } : { version: 6, bytes: v6 };
}

/**
 * Strips what may surround an address in `X-Forwarded-For` or RFC 7239
 * `for=`: quotes, `[` `]` around IPv6, and a `:port`. Returns the bare text.
 */
export function stripAddressDecorations(raw: string): string {
  let text = raw.trim();
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) text = text.slice(1, -1).trim();
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    if (end < 0) return '';
    const after = text.slice(end + 1);
    if (after !== '' && !/^:[0-9]{1,5}$/.test(after)) return '';
    return text.slice(1, end);
  }
  const colon = text.indexOf(':');
  if (colon >= 0 && colon === text.lastIndexOf(':') && text.includes('.')) {
    return /^[0-9]{1,5}$/.test(text.slice(colon + 1)) ? text.slice(0, colon) : '';
  }
  return text;
}

function hexGroupsOf(bytes: Uint8Array, count: number): string {
  const groups: string[] = [];
  for (let i = 0; i < count * 2; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return groups.join(':');
}

/** Canonical text of an address: dotted quad, or lower-case IPv6 with all eight groups (no `::`). */
export function formatIp(ip: ParsedIp): string {
  const b = ip.bytes;
  return ip.version === 4 ? `${b[0]}.${b[1]}.${b[2]}.${b[3]}` : hexGroupsOf(b, 8);
}

/**
 * The budget key of an address: the IPv4 address itself, or the IPv6 /64
 * network (one subscriber usually owns a whole /64, so counting single IPv6
 * addresses would hand out 2^64 budgets).
 */
export function ipBudgetKey(ip: ParsedIp): string {
  return ip.version === 4 ? formatIp(ip) : `${hexGroupsOf(ip.bytes, 4)}::/64`;
}
