/**
 * CIDR ranges (RFC 4632, RFC 4291 §2.3) for trusted proxies.
 * @internal
 * @module
 */
import { parseIp, type ParsedIp } from './ip.js';

/** A network: address bytes and prefix length in bits. */
export interface Cidr {
  version: 4 | 6;
  bytes: Uint8Array;
  prefix: number;
}

/**
 * Parses `192.0.2.0/24`, `2001:db8::/32` or a bare address (a /32 or /128).
 * An IPv4-mapped IPv6 range (`::ffff:10.0.0.0/104`) becomes the IPv4 range.
 * Returns null for anything else; never throws.
 */
export function parseCidr(text: string): Cidr | null {
  if (typeof text !== 'string') return null;
  const slash = text.indexOf('/');
  const address = slash < 0 ? text.trim() : text.slice(0, slash).trim();
  const ip = parseIp(address);
  if (!ip) return null;
  const max = ip.version === 4 ? 32 : 128;
  let prefix = max;
  if (slash >= 0) {
    const bits = text.slice(slash + 1).trim();
    if (!/^[0-9]{1,3}$/.test(bits)) return null;
    prefix = Number(bits);
    // A mapped address was parsed as IPv4; its prefix was written against 128 bits.
    if (ip.version === 4 && address.includes(':')) prefix -= 96;
    if (prefix < 0 || prefix > max) return null;
  }
  return { version: ip.version, bytes: ip.bytes, prefix };
}

/** Whether `ip` lies in `cidr`. Different families never match. */
export function cidrContains(cidr: Cidr, ip: ParsedIp): boolean {
  if (cidr.version !== ip.version) return false;
  let bits = cidr.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((cidr.bytes[i]! & mask) !== (ip.bytes[i]! & mask)) return false;
  }
  return true;
}
