/**
 * Who an OAuth sign-in signs in as, and what it stores. Safe by default:
 * - an account already linked signs in its user;
 * - a signed-in user who starts a flow links the new account to themselves;
 * - an email matching an existing user links only when the provider is
 *   trusted (`trustEmail`) and reports the email verified; otherwise
 *   `OAuthAccountNotLinked`;
 * - otherwise a new user is created with an id of ours.
 * @internal
 * @module
 */
import { AuthError } from '../errors.js';
import { authError } from '../errors/auth-error.js';
import type { AdapterAccount, AdapterUser, StorageAdapter } from '../storage/types.js';
import type { OAuthProvider, TokenSet, UserProfile } from '../providers/oauth/types.js';

export type SignInPlan =
  { kind: 'existing'; user: AdapterUser } | { kind: 'link'; user: AdapterUser } | { kind: 'create'; user: AdapterUser };

function notLinked(): AuthError {
  return authError(
    'OAUTH_ACCOUNT_NOT_LINKED',
    'This account is not linked to the existing user with the same email. Sign in the way you did before, then link it.',
  );
}

/** Decides the plan without writing anything (so the `signIn` callback can still refuse). */
export async function planOAuthSignIn(
  adapter: StorageAdapter,
  provider: Pick<OAuthProvider, 'id' | 'trustEmail'>,
  profile: UserProfile,
  currentUserId: string | null,
): Promise<SignInPlan> {
  const key = { provider: provider.id, providerAccountId: profile.id };
  const owner = await adapter.getUserByAccount(key);
  if (owner) {
    if (currentUserId && currentUserId !== owner.id) throw notLinked();
    return { kind: 'existing', user: owner };
  }
  if (currentUserId) {
    const current = await adapter.getUser(currentUserId);
    if (current) return { kind: 'link', user: current };
  }
  const email = profile.email?.trim() || null;
  if (email) {
    const byEmail = await adapter.getUserByEmail(email);
    if (byEmail) {
      if (provider.trustEmail && profile.emailVerified) return { kind: 'link', user: byEmail };
      throw notLinked();
    }
  }
  return {
    kind: 'create',
    user: {
      id: crypto.randomUUID(),
      email,
      name: profile.name ?? null,
      image: profile.image ?? null,
      // Only a provider trusted for emails proves one: otherwise an attacker's IdP could mark
      // the victim's address verified and shield the account from the pre-hijacking defence.
      emailVerified: provider.trustEmail ? (profile.emailVerified ?? null) : null,
    },
  };
}

/** The Account row for a token set (RFC 6749 §5.1 names; `expires_at` in seconds since the epoch; `nowMs` the auth's clock). */
export function accountFrom(
  provider: OAuthProvider,
  userId: string,
  providerAccountId: string,
  tokens: TokenSet,
  nowMs: number,
): AdapterAccount {
  const account: AdapterAccount = {
    userId,
    type: provider.type,
    provider: provider.id,
    providerAccountId,
    access_token: tokens.access_token,
  };
  if (tokens.refresh_token) account.refresh_token = tokens.refresh_token;
  if (typeof tokens.expires_in === 'number') account.expires_at = Math.floor(nowMs / 1000) + tokens.expires_in;
  if (tokens.token_type) account.token_type = tokens.token_type.toLowerCase();
  if (tokens.scope) account.scope = tokens.scope;
  if (tokens.id_token) account.id_token = tokens.id_token;
  return account;
}

/** Carries out a plan: creates the user and/or links or refreshes the account. */
export async function applyOAuthSignIn(
  adapter: StorageAdapter,
  plan: SignInPlan,
  account: AdapterAccount,
): Promise<AdapterUser> {
  if (plan.kind === 'create') {
    const user = await adapter.createUser(plan.user);
    await adapter.linkAccount({ ...account, userId: user.id });
    return user;
  }
  if (plan.kind === 'link') {
    await adapter.linkAccount({ ...account, userId: plan.user.id });
    return plan.user;
  }
  const { userId: _u, provider, providerAccountId, type: _t, ...tokens } = account;
  await adapter.updateAccount({ provider, providerAccountId }, tokens);
  return plan.user;
}
