/**
 * What a cold `import('@framework/auth')` loads, counted in a fresh Node process (import-probe.fixture.mjs), not
 * timed: Kysely and the SQL dialects load only once an SQL adapter is created, Upstash only from
 * `@framework/auth/rate-limit/upstash`, the Wasm argon2 only from `@framework/auth/argon2-wasm`, the optional
 * drivers only on an adapter's first call, the OpenTelemetry API once `createAuth` is called, and the OAuth flow
 * (oauth4webapi) once an OAuth provider is built; jose once a feature that signs or seals is set up. (The milliseconds are printed by `npm run size -w @framework/bench`.)
 */
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const PROBE = join(here, 'import-probe.fixture.mjs');
const HEAVY = [
  'kysely',
  'pg',
  'mysql2',
  'better-sqlite3',
  '@upstash/redis',
  '@upstash/ratelimit',
  'hash-wasm',
  '@opentelemetry/api',
  'oauth4webapi',
  'jose',
];

/** The node_modules packages a fresh process loads for `import(specifier)` (from the source, through tsx). */
async function loadedPackages(specifier: string, action?: 'sqlite' | 'request'): Promise<string[]> {
  const args = ['--import', 'tsx', '--conditions=@framework/source', PROBE, specifier, ...(action ? [action] : [])];
  const { stdout } = await promisify(execFile)(process.execPath, args, {
    cwd: dirname(here),
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as string[];
}

describe('cold import of @framework/auth', { timeout: 180_000 }, () => {
  it('loads no Kysely, SQL driver, Upstash, Wasm argon2, OpenTelemetry, oauth4webapi or jose module', async () => {
    const packages = await loadedPackages('@framework/auth');
    expect(packages).toContain('cookie'); // the probe sees the packages the index does load
    for (const heavy of HEAVY) expect(packages, heavy).not.toContain(heavy);
  });

  it('creating a SQLite adapter loads Kysely, and not better-sqlite3 before its first call (the probe sees it)', async () => {
    const packages = await loadedPackages('@framework/auth', 'sqlite');
    expect(packages).toContain('kysely');
    expect(packages).not.toContain('better-sqlite3');
  });

  it('an auth starting an OAuth sign-in has loaded OpenTelemetry, oauth4webapi and jose (the probe sees them)', async () => {
    const packages = await loadedPackages('@framework/auth', 'request');
    for (const lazy of ['@opentelemetry/api', 'oauth4webapi', 'jose']) expect(packages, lazy).toContain(lazy);
  });
});
