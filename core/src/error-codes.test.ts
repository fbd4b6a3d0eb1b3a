import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { AUTH_ERRORS, type AuthErrorCode } from './error-codes.js';
import { AuthError, badRequest } from './errors.js';

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
  it('the README table lists every code with the status of AUTH_ERRORS, and nothing else', () => {
    const documented = readmeTable();
    expect(Object.fromEntries(documented)).toEqual(
      Object.fromEntries(Object.entries(AUTH_ERRORS).map(([code, info]) => [code, info.status])),
    );
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
