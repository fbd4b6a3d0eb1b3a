/**
 * Loopback checks for the development mode: the client must be this machine.
 * @module
 */

/** `true` for 127.0.0.0/8, `::1` in any spelling, or an IPv4 loopback address mapped into IPv6. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(address)) {
    const octets = address.split('.').map(Number);
    return octets[0] === 127 && octets.every((o) => o <= 255);
  }
  if (!address.includes(':')) return false;
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]/`).hostname; // the WHATWG URL parser compresses IPv6
  } catch {
    return false;
  }
  return canonical === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(canonical);
}

/** `true` when a Host header names this machine: `localhost`, `*.localhost`, a loopback IPv4 address or `[::1]`. */
export function isLoopbackHost(host: string | null | undefined): boolean {
  if (!host) return false;
  const name = host.toLowerCase().replace(/:\d+$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  return isLoopbackAddress(name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name);
}

const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

/**
 * Whether a request comes straight from this machine: the socket peer `ip`
 * (from the adapter, never a header) is loopback, the Host header names a
 * loopback host (so a DNS-rebinding page cannot reach it through the
 * developer's browser), and no proxy forwarded it.
 */
export function isLocalRequest(request: Request, ip: string | undefined): boolean {
  if (FORWARDING_HEADERS.some((name) => request.headers.has(name))) return false;
  return isLoopbackAddress(ip) && isLoopbackHost(request.headers.get('host') ?? new URL(request.url).host);
}
