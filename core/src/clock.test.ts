/**
 * One clock per auth instance: every time decision of the core reads `ctx.auth.clock` (or a time its caller
 * passed). This test scans the core's sources for `Date.now()` and `new Date()` (the current time) and fails on
 * any outside the places listed here, each with why it keeps the real time. A new time decision uses
 * `ctx.auth.clock.now()` (in a route), `auth.clock` (in a plugin's `init`), or takes `now` from its caller.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createAuth } from './auth.js';
import { systemClock, type AuthClock } from './clock.js';

const SRC = fileURLToPath(new URL('.', import.meta.url));

/** Files that read the real time on purpose, with how many reads, and why. */
const ALLOWED: Record<string, { reads: number; why: string }> = {
  'clock.ts': { reads: 1, why: 'the default clock itself' },
  'events.ts': { reads: 1, why: "eventContext's default for direct callers; the routes pass the clock's time" },
  // Storage is told the time by its caller; these are the defaults of a call that passes none.
  'storage/memory.ts': { reads: 2, why: 'countActiveSessions/purgeExpired default `now`' },
  'storage/sql/store.ts': { reads: 2, why: 'purgeExpired default `now`; the dashboard count of live sessions' },
  'storage/drizzle/adapter.ts': { reads: 2, why: 'purgeExpired default `now`; the dashboard count of live sessions' },
  'storage/sql/cached-count.ts': { reads: 1, why: 'how long a dashboard count is reused (a cache, not a decision)' },
  'secondary/redis-tokens.ts': { reads: 2, why: "Redis key TTLs run on Redis's real time; purgeExpired default" },
  'secondary/session-cache.ts': { reads: 2, why: 'freshness of the in-process session cache (expiry is re-checked)' },
  // Profile mappings record when a provider vouched for an address; they run without a request's clock.
  'providers/oauth/standard-claims.ts': { reads: 1, why: 'emailVerified timestamp of a profile' },
  'providers/oauth/oauth-harness.ts': { reads: 1, why: 'test harness: emailVerified timestamp of a profile' },
  'providers/oauth/presets/search.ts': { reads: 1, why: 'emailVerified timestamp of a profile' },
  'providers/oauth/presets/atlassian.ts': { reads: 1, why: 'emailVerified timestamp of a profile' },
  'providers/oauth/presets/bitbucket.ts': { reads: 1, why: 'emailVerified timestamp of a profile' },
  'providers/oauth/presets/codehost.ts': { reads: 1, why: 'emailVerified timestamp of a profile' },
  'providers/oauth/presets/chat.ts': { reads: 1, why: 'emailVerified timestamp of a profile' },
  'providers/oauth/presets/dropbox.ts': { reads: 1, why: 'emailVerified timestamp of a profile' },
  'providers/oauth/presets/kakao.ts': { reads: 1, why: 'emailVerified timestamp of a profile' },
  'providers/oauth/presets/device.ts': {
    reads: 2,
    why: "the client secret JWT is checked by the provider's servers in real time; emailVerified timestamp",
  },
  'providers/oauth/strict-provider.ts': { reads: 3, why: 'test harness: a remote OpenID Provider on its own time' },
  'plugins/organizations/owner-fixture.ts': { reads: 1, why: 'test fixture' },
  // Record timestamps and housekeeping in plugin storages (the expiry decisions take the caller's time).
  'tenant/storage/backend.ts': { reads: 4, why: 'membership record timestamps (the tenant storage API has no clock)' },
  'plugins/username/storage/sql.ts': { reads: 1, why: 'created_at record timestamp' },
  'plugins/otp/storage/memory.ts': { reads: 1, why: 'drops long-expired codes on write (housekeeping)' },
  'plugins/otp/storage/sql.ts': { reads: 1, why: 'drops long-expired codes on write (housekeeping)' },
  'plugins/two-factor/storage/memory.ts': { reads: 1, why: 'drops expired sign-in challenges on write (housekeeping)' },
  'plugins/two-factor/storage/sql.ts': { reads: 1, why: 'drops expired sign-in challenges on write (housekeeping)' },
};

const NOW = /Date\.now\(\)|new Date\(\)/g;
const SKIPPED = /\.test\.ts$|\.test-helpers\.ts$|conformance(\.ts$|\/)|\.d\.ts$/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Reads of the real time in code (comments and TSDoc left out). */
function realTimeReads(text: string): number {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  return code.match(NOW)?.length ?? 0;
}

describe('one clock per auth instance', () => {
  it('no time decision in the core reads Date.now() or new Date() outside the listed places', () => {
    const found: Record<string, number> = {};
    for (const path of sources(SRC)) {
      const name = relative(SRC, path).split('\\').join('/');
      if (SKIPPED.test(name)) continue;
      const reads = realTimeReads(readFileSync(path, 'utf8'));
      if (reads > 0) found[name] = reads;
    }
    const strays = Object.entries(found)
      .filter(([name, reads]) => reads > (ALLOWED[name]?.reads ?? 0))
      .map(([name, reads]) => `${name}: ${reads} read(s) of the real time; use ctx.auth.clock.now()`);
    expect(strays).toEqual([]);
  });

  it('the default clock is the real time, and createAuth takes a clock and exposes it', () => {
    const before = Date.now();
    const now = systemClock.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
    const clock: AuthClock = { now: () => 0 };
    expect(createAuth({ secret: 'a-secret-of-at-least-32-characters-long!', env: {}, clock }).clock).toBe(clock);
    expect(createAuth({ secret: 'a-secret-of-at-least-32-characters-long!', env: {} }).clock).toBe(systemClock);
  });

  it('a JWT session expires on the clock: in the verified-token cache and through jose (currentDate)', async () => {
    let t = Date.parse('2030-01-01T00:00:00Z');
    const clock: AuthClock = { now: () => t };
    const options = {
      secret: 'a-secret-of-at-least-32-characters-long!',
      env: {},
      clock,
      session: { strategy: 'jwt' as const, maxAge: 3600 },
    };
    const auth = createAuth(options);
    const { headers, expires } = await auth.createSession({ id: 'u1', email: 'ada@example.com' });
    expect(expires.toISOString()).toBe('2030-01-01T01:00:00.000Z');
    const cookie = headers.get('set-cookie')!.split(';')[0]!;
    const read = async (a: typeof auth) =>
      (await a.getSession(new Request('http://localhost/', { headers: { cookie } }))).session?.user.id ?? null;
    expect(await read(auth)).toBe('u1');
    // a fresh instance has no cached verification: jose checks the token, with the auth's clock
    expect(await read(createAuth(options))).toBe('u1');
    t += 3601_000;
    expect(await read(auth)).toBeNull();
    // in real time the token is still valid (it expires in 2030): only the clock ends it
    expect(await read(createAuth(options))).toBeNull();
  });

  it('refuses a clock without now()', () => {
    expect(() =>
      createAuth({ secret: 'a-secret-of-at-least-32-characters-long!', env: {}, clock: {} as AuthClock }),
    ).toThrow('clock must be an object with now()');
  });
});
