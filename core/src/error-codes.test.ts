import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { AUTH_ERRORS, type AuthErrorCode } from './error-codes.js';
import { AuthError, badRequest } from './errors.js';
import { ADMIN_ERRORS } from './plugins/admin/errors.js';
import { ORGANIZATION_ERRORS } from './plugins/organizations/errors.js';
import { PASSKEY_ERRORS } from './plugins/passkey/errors.js';
import { TWO_FACTOR_ERRORS } from './plugins/two-factor/errors.js';

/** The core's table and the built-in plugins' tables, code → status. */
const BUILT_IN = {
  ...AUTH_ERRORS,
  ...TWO_FACTOR_ERRORS.codes,
  ...ADMIN_ERRORS.codes,
  ...ORGANIZATION_ERRORS.codes,
  ...PASSKEY_ERRORS.codes,
};

/** The README's error table: code → status, from rows like "| `A`, `B` | 404 | … |". */
function readmeTable(): Map<string, number> {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf('| code | status | when |');
  const rows = readme.slice(start).split('\n\n')[0]!.split('\n').slice(2);
  const out = new Map<string, number>();
  for (const row of rows) {
    const [codes, status] = row.split('|').slice(1, 3);
    for (const m of codes!.matchAll(/`([A-Z_]+)`/g)) out.set(m[1]!, Number(status!.trim()));
  }
  return out;
}

describe('error codes', () => {
  it("the README table lists every code of the core's and the built-in plugins' tables with its status, and nothing else", () => {
    const documented = readmeTable();
    expect(Object.fromEntries(documented)).toEqual(
      Object.fromEntries(Object.entries(BUILT_IN).map(([code, info]) => [code, info.status])),
    );
  });

  it("the core's table holds no built-in plugin's code", () => {
    for (const table of [TWO_FACTOR_ERRORS, ADMIN_ERRORS, ORGANIZATION_ERRORS, PASSKEY_ERRORS])
      for (const code of Object.keys(table.codes)) expect(Object.hasOwn(AUTH_ERRORS, code)).toBe(false);
  });

  it('AuthError takes its status from the table, and is typed by it', () => {
    expect(new AuthError('x', { code: 'RATE_LIMITED' }).status).toBe(429);
    expect(badRequest('too big', 'PAYLOAD_TOO_LARGE').status).toBe(413);
    expect(new AuthError('x', { code: 'NOT_FOUND', status: 410 }).status).toBe(410);
    expectTypeOf<AuthError['code']>().toEqualTypeOf<AuthErrorCode>();
    // @ts-expect-error a code outside the table is a type error
    void new AuthError('x', { code: 'NOT_A_CODE' });
  });

  it('carries headers (Allow on 405) into the answer', async () => {
    const e = new AuthError('no', { code: 'METHOD_NOT_ALLOWED', headers: { allow: 'GET, HEAD' } });
    expect(e.getResponse().headers.get('allow')).toBe('GET, HEAD');
    expect(e.getResponse().status).toBe(405);
  });
});
