/**
 * The error codes the client types from the server's `typeof auth`: the core's codes and those of the plugins given
 * to `createAuth`. The `expectTypeOf` checks fail the repository's typecheck (`tsc -p tsconfig.json`).
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { AUTH_ERRORS, createAuth, createMemoryAdapter, type CoreErrorCode } from '@framework/auth';
import { TWO_FACTOR_ERRORS, twoFactor } from '@framework/auth/plugins/two-factor';
import { organizations } from '@framework/auth/plugins/organizations';
import type { AuthErrorCodeOf } from '../src/index.js';

// Only the types of these engines are read, as an app's client code does; the functions never run.
/* eslint-disable @typescript-eslint/no-unused-vars */
const plainAuth = () => createAuth({ adapter: createMemoryAdapter(), providers: [] });
const pluginAuth = () =>
  createAuth({ adapter: createMemoryAdapter(), providers: [], plugins: [twoFactor(), organizations({} as never)] });
/* eslint-enable @typescript-eslint/no-unused-vars */
type Plain = ReturnType<typeof plainAuth>;
type WithPlugins = ReturnType<typeof pluginAuth>;

type PluginCodes = keyof typeof TWO_FACTOR_ERRORS.codes | 'SLUG_TAKEN' | 'ALREADY_MEMBER' | 'INVITATION_EMAIL_MISMATCH';

describe('AuthErrorCodeOf', () => {
  it("is the core's codes for an engine without plugins", () => {
    expectTypeOf<AuthErrorCodeOf<Plain>>().toEqualTypeOf<CoreErrorCode>();
    expectTypeOf<'TWO_FACTOR_REQUIRED'>().not.toMatchTypeOf<AuthErrorCodeOf<Plain>>();
    expect(Object.hasOwn(AUTH_ERRORS, 'TWO_FACTOR_REQUIRED')).toBe(false);
  });

  it('adds the codes of the plugins passed to createAuth', () => {
    expectTypeOf<AuthErrorCodeOf<WithPlugins>>().toEqualTypeOf<CoreErrorCode | PluginCodes>();
    expectTypeOf<'TWO_FACTOR_LOCKED'>().toMatchTypeOf<AuthErrorCodeOf<WithPlugins>>();
    expectTypeOf<'NOT_A_CODE'>().not.toMatchTypeOf<AuthErrorCodeOf<WithPlugins>>();
    expect(TWO_FACTOR_ERRORS.codes.TWO_FACTOR_LOCKED.status).toBe(429);
  });

  it('is string without a server type', () => {
    expectTypeOf<AuthErrorCodeOf>().toEqualTypeOf<string>();
    expectTypeOf<AuthErrorCodeOf<unknown>>().toEqualTypeOf<string>();
  });
});
