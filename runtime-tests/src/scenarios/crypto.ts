/**
 * The core's crypto helpers give the WebCrypto answer whichever path they take.
 * @module
 */
import { hmacSha256, sha256Hex, timingSafeEqual, toBase64Url, toHex } from '../../../core/src/crypto.js';
import { same, type Scenario } from '../scenario.js';

const encoder = new TextEncoder();

export const cryptoScenarios: Scenario[] = [
  {
    name: 'crypto: node:crypto fast paths (where usable) match WebCrypto',
    async run() {
      const input = 'päss ✓ 🔑';
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(input)));
      same(await sha256Hex(input), toHex(digest), 'sha256Hex');
      const key = await crypto.subtle.importKey(
        'raw',
        encoder.encode('k3y'),
        { name: 'HMAC', hash: 'SHA-256' },
        false,
        ['sign'],
      );
      const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(input)));
      same(await hmacSha256('k3y', input), toBase64Url(mac), 'hmacSha256');
      same(
        [timingSafeEqual('abc', 'abc'), timingSafeEqual('abc', 'abd'), timingSafeEqual('abc', 'abcd')],
        [true, false, false],
        'timingSafeEqual',
      );
    },
  },
];
