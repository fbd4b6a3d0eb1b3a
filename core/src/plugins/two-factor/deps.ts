/**
 * What the two-factor routes share: their dependencies, the no-store headers, the refusals, and the check of a
 * second factor within the user's failure budget.
 * @module
 * @internal
 */
import type { RouteContext, AuthHooks } from '../../plugin-kit.js';
import { spendSecondFactor, type KeyVault, type SecondFactor } from './codes.js';
import { withinFailureBudget } from './lockout.js';
import type { ResolvedTwoFactorOptions } from './options.js';
import type { TwoFactorRecord } from './types.js';
import { TWO_FACTOR_ERRORS } from './errors.js';

/** What the routes share, made once in the plugin's `init`. */
export interface TwoFactorDeps {
  options: ResolvedTwoFactorOptions;
  vault: () => KeyVault;
  /** The plugin's own `beforeSession` hook, skipped when `verify` finishes a sign-in. */
  ownHook: NonNullable<AuthHooks['beforeSession']>;
}

export const NO_STORE = { 'cache-control': 'no-store', 'referrer-policy': 'same-origin' };
export const fail = (
  code: 'TWO_FACTOR_INVALID_CODE' | 'TWO_FACTOR_NOT_ENABLED' | 'TWO_FACTOR_ALREADY_ENABLED',
  message: string,
) => TWO_FACTOR_ERRORS.error(code, message);
export const challengeInvalid = () => TWO_FACTOR_ERRORS.error('TWO_FACTOR_CHALLENGE_INVALID');

/**
 * Checks and spends a second factor of an enabled enrolment within the user's failure budget (`lockout`).
 * @throws AuthError `TWO_FACTOR_LOCKED` (429) while the budget is spent.
 */
export function spendWithinBudget(
  deps: TwoFactorDeps,
  ctx: RouteContext,
  record: TwoFactorRecord,
  factor: SecondFactor,
): Promise<boolean> {
  // Nothing sent is no guess.
  if (!factor.code && !factor.backupCode) return Promise.resolve(false);
  return withinFailureBudget(ctx, deps.options.lockout, record.userId, () =>
    spendSecondFactor(deps.options, deps.vault(), record, factor, ctx.auth.clock.now()),
  );
}
