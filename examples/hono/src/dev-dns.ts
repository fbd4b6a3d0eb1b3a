/**
 * The example's stand-in for DNS, for `sso()`'s domain proof only. A real organization proves its email domain by
 * publishing a TXT record `_framework-sso.<domain>` at its DNS host; the demo domain `acme.test` has no DNS host
 * (`.test` is reserved and never resolves), so in development the SSO seed "publishes" the record here and
 * `sso({ resolveTxt })` reads it. Every other name goes to real DNS (`node:dns/promises`), so a domain of your own
 * can still be proven for real. Never use this in production: whoever can call `publish` proves any domain.
 */
import type { ResolveTxt } from '@framework/auth/plugins/sso';

export interface DevDns {
  /** The lookup to hand to `sso({ resolveTxt })` (through `createExampleApp({ ssoResolveTxt })`). */
  resolveTxt: ResolveTxt;
  /** Answers `value` as the one TXT record of `name` from now on (replacing what was published there). */
  publish(name: string, value: string): void;
}

/** A TXT lookup that answers published names itself and asks real DNS for the rest. */
export function createDevDns(): DevDns {
  const records = new Map<string, string[][]>();
  return {
    async resolveTxt(name) {
      const published = records.get(name.toLowerCase());
      if (published) return published;
      return (await import('node:dns/promises')).resolveTxt(name);
    },
    publish(name, value) {
      records.set(name.toLowerCase(), [[value]]);
    },
  };
}
