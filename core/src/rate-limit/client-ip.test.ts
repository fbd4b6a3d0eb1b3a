import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCidr, cidrContains } from './cidr.js';
import { clientIpResolver, resolveClientIp } from './client-ip.js';
import { formatIp, ipBudgetKey, parseIp, stripAddressDecorations } from './ip.js';

const withXff = (xff?: string) =>
  new Request('http://x/', xff === undefined ? {} : { headers: { 'x-forwarded-for': xff } });
const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join('.'));
const v6 = fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 }).map((g) => g.map((n) => n.toString(16)).join(':'));
const hostile = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc
    .array(fc.constantFrom('1', '.', ':', '[', ']', '%', ',', 'f', ' ', '"', '/', '9', '0'), { maxLength: 60 })
    .map((a) => a.join('')),
);

describe('address parsing', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['2001:DB8::1', '2001:db8:0:0:0:0:0:1'],
    ['::', '0:0:0:0:0:0:0:0'],
    ['fe80::1%eth0', 'fe80:0:0:0:0:0:0:1'],
    ['64:ff9b::192.0.2.33', '64:ff9b:0:0:0:0:c000:221'],
  ])('%s → %s', (text, canonical) => {
    expect(formatIp(parseIp(text)!)).toBe(canonical);
  });

  it.each([
    '',
    '1.2.3',
    '1.2.3.4.5',
    '01.2.3.4',
    '256.1.1.1',
    '1:2:3:4:5:6:7:8:9',
    ':::',
    '1::2::3',
    'g::1',
    '::1.2.3',
    'localhost',
  ])('%j is not an address', (text) => {
    expect(parseIp(text)).toBeNull();
  });

  it.each([
    ['"[2001:db8::1]:4711"', '2001:db8::1'],
    ['192.0.2.1:8080', '192.0.2.1'],
    [' 192.0.2.1 ', '192.0.2.1'],
    ['[::1]', '::1'],
    ['[::1]x', ''],
  ])('strips decorations of %j', (raw, bare) => {
    expect(stripAddressDecorations(raw)).toBe(bare);
  });

  it('round-trips every IPv4 and IPv6 address', () => {
    fc.assert(fc.property(v4, (a) => formatIp(parseIp(a)!) === a));
    fc.assert(fc.property(v6, (a) => formatIp(parseIp(a)!) === formatIp(parseIp(formatIp(parseIp(a)!))!)));
  });

  it('groups IPv6 per /64 and keeps IPv4 whole', () => {
    expect(ipBudgetKey(parseIp('2001:db8:a:b:1:2:3:4')!)).toBe('2001:db8:a:b::/64');
    expect(ipBudgetKey(parseIp('192.0.2.1')!)).toBe('192.0.2.1');
    fc.assert(
      fc.property(v6, fc.array(fc.nat(0xffff), { minLength: 4, maxLength: 4 }), (a, low) => {
        const groups = a
          .split(':')
          .slice(0, 4)
          .concat(low.map((n) => n.toString(16)))
          .join(':');
        const ip = parseIp(groups)!;
        return ip.version === 4 || ipBudgetKey(ip) === ipBudgetKey(parseIp(a)!);
      }),
    );
  });
});

describe('CIDR', () => {
  it('matches by prefix', () => {
    const net = parseCidr('10.1.0.0/16')!;
    expect(cidrContains(net, parseIp('10.1.255.3')!)).toBe(true);
    expect(cidrContains(net, parseIp('10.2.0.1')!)).toBe(false);
    expect(cidrContains(parseCidr('2001:db8::/32')!, parseIp('2001:db8:ffff::1')!)).toBe(true);
    expect(cidrContains(parseCidr('::ffff:10.0.0.0/104')!, parseIp('10.9.9.9')!)).toBe(true);
    expect(cidrContains(parseCidr('0.0.0.0/0')!, parseIp('::1')!)).toBe(false);
    expect(parseCidr('10.0.0.0/8x')).toBeNull();
  });

  it('an address is in every prefix of itself', () => {
    fc.assert(fc.property(v4, fc.nat(32), (a, bits) => cidrContains(parseCidr(`${a}/${bits}`)!, parseIp(a)!)));
    fc.assert(
      fc.property(v6, fc.nat(128), (a, bits) => {
        const cidr = parseCidr(`${a}/${bits}`);
        const ip = parseIp(a)!;
        return cidr !== null && cidrContains(cidr, ip);
      }),
    );
  });
});

describe('client IP', () => {
  it('without trustProxy, ignores X-Forwarded-For', () => {
    expect(resolveClientIp(withXff('203.0.113.9'), { ip: '10.0.0.1' })).toBe('10.0.0.1');
    expect(resolveClientIp(withXff('203.0.113.9'), {})).toBeNull();
  });

  it('with a hop count, takes the n-th address from the right of [...xff, peer]', () => {
    const req = withXff('6.6.6.6, 203.0.113.9, 10.0.0.2');
    expect(resolveClientIp(req, { ip: '10.0.0.1', trustProxy: 1 })).toBe('10.0.0.2');
    expect(resolveClientIp(req, { ip: '10.0.0.1', trustProxy: 2 })).toBe('203.0.113.9');
    expect(resolveClientIp(req, { ip: '10.0.0.1', trustProxy: 9 })).toBe('6.6.6.6');
    expect(resolveClientIp(withXff(), { ip: '10.0.0.1', trustProxy: 1 })).toBe('10.0.0.1');
  });

  it('with CIDRs, walks left past trusted proxies only', () => {
    const trustProxy = ['10.0.0.0/8', '2001:db8::/32'];
    const req = withXff('6.6.6.6, 203.0.113.9, 10.0.0.2');
    expect(resolveClientIp(req, { ip: '10.0.0.1', trustProxy })).toBe('203.0.113.9');
    // An untrusted peer is the client, whatever it claims.
    expect(resolveClientIp(req, { ip: '198.51.100.1', trustProxy })).toBe('198.51.100.1');
    // Unknown peer: the header cannot be vouched for.
    expect(resolveClientIp(req, { trustProxy })).toBeNull();
    expect(resolveClientIp(withXff('garbage, 10.0.0.2'), { ip: '10.0.0.1', trustProxy })).toBe('10.0.0.2');
    expect(resolveClientIp(withXff('"[2001:db8::5]:443"'), { ip: '::ffff:10.0.0.1', trustProxy: ['10.0.0.0/8'] })).toBe(
      '2001:db8:0:0:0:0:0:5',
    );
  });

  it('never throws on hostile headers and peers, and only answers parseable addresses', () => {
    const resolvers = [
      clientIpResolver(undefined),
      clientIpResolver(1),
      clientIpResolver(3),
      clientIpResolver(['10.0.0.0/8', '::/0']),
    ];
    fc.assert(
      fc.property(
        fc.array(fc.oneof(hostile, v4, v6), { maxLength: 80 }),
        fc.option(fc.oneof(hostile, v4, v6), { nil: undefined }),
        (entries, peer) => {
          let request: Request;
          try {
            request = withXff(entries.join(','));
          } catch {
            return true; // not a valid header value: the runtime refuses it before we see it
          }
          for (const resolve of resolvers) {
            const ip = resolve(request, peer);
            if (ip !== null && parseIp(formatIp(ip)) === null) return false;
          }
          return true;
        },
      ),
      { numRuns: 500 },
    );
  });

  it('parsers never throw on any string', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        parseIp(text);
        parseCidr(text);
        stripAddressDecorations(text);
        return true;
      }),
      { numRuns: 2000 },
    );
  });
});
