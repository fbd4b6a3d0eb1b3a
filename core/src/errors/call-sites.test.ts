/**
 * Errors are owned where they are raised: no `new AuthError(...)` in the core's sources restates the status or the
 * default message its code's table already holds (raise through `authError` or the plugin's table instead).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import '../error-codes.js';
import '../plugins/admin/errors.js';
import '../plugins/captcha/errors.js';
import '../plugins/email-otp/errors.js';
import '../plugins/have-i-been-pwned/errors.js';
import '../plugins/organizations/errors.js';
import '../plugins/otp/errors.js';
import '../plugins/passkey/errors.js';
import '../plugins/two-factor/errors.js';
import '../user-fields/errors.js';
import { lookupErrorCode, type ErrorCodeSpec } from './registry.js';

const core = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// The message may be a template with `${...}` parts (their braces must not be taken for the options object).
const CALL =
  /new AuthError\(\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\$]|\\.|\$\{[^}]*\}|\$(?!\{))*`)?[^{]*\{([^}]*)\}/g;

/** The literal value of a quoted string (a template without `${...}`), or undefined for anything else. */
function literal(text: string | undefined): string | undefined {
  if (text === undefined || (text.startsWith('`') && text.includes('${'))) return undefined;
  return text.startsWith('`')
    ? text.slice(1, -1)
    : (JSON.parse(
        text.startsWith("'") ? `"${text.slice(1, -1).replaceAll('"', '\\"').replaceAll("\\'", "'")}"` : text,
      ) as string);
}

/** The `new AuthError(...)` calls of `text` (outside comments) that restate their literal code's status or message. */
function restatements(text: string, lookup: (code: string) => ErrorCodeSpec | undefined): string[] {
  const code = text.replace(/^\s*(\*|\/\/).*$/gm, '');
  const found: string[] = [];
  for (const m of code.matchAll(CALL)) {
    const name = /\bcode:\s*'([A-Z_]+)'/.exec(m[2]!)?.[1];
    const spec = name === undefined ? undefined : lookup(name);
    if (spec === undefined) continue;
    const status = /\bstatus:\s*(\d+)/.exec(m[2]!)?.[1];
    if (status !== undefined && Number(status) === spec.status) found.push(`${name} restates status ${status}`);
    if (literal(m[1]) === spec.message) found.push(`${name} restates its message`);
  }
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.ts$/.test(name) && !/\.test(-helpers)?\.ts$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Findings not converted yet; each entry must still be found, so the list only shrinks (it is empty). */
const PENDING: string[] = [];

describe('AuthError call sites', () => {
  it("no core source restates its code's table status or default message", () => {
    const found = sources(core).flatMap((file) =>
      restatements(readFileSync(file, 'utf8'), lookupErrorCode).map((r) => `${relative(core, file)}: ${r}`),
    );
    expect(found.filter((f) => !PENDING.includes(f))).toEqual([]);
    expect(PENDING.filter((p) => !found.includes(p))).toEqual([]);
  });

  it('finds a restated status and a restated message (the check can fail)', () => {
    const text = [
      "throw new AuthError('Nope', { code: 'FORBIDDEN', status: 403 });",
      "throw new AuthError('Too many wrong codes; try again later', {\n  code: 'TWO_FACTOR_LOCKED',\n  headers,\n});",
      "throw new AuthError('Gone', { code: 'NOT_FOUND', status: 410 });",
      "throw new AuthError(`Use at least ${n} characters`, { code: 'INVALID_REQUEST', status: 400 });",
      "throw new AuthError(`That code is wrong or has expired`, { code: 'OTP_INVALID' });",
      " * new AuthError('Forbidden', { code: 'FORBIDDEN', status: 403 }) in a comment",
    ].join('\n');
    expect(restatements(text, lookupErrorCode)).toEqual([
      'FORBIDDEN restates status 403',
      'TWO_FACTOR_LOCKED restates its message',
      'INVALID_REQUEST restates status 400',
      'OTP_INVALID restates its message',
    ]);
  });
});
