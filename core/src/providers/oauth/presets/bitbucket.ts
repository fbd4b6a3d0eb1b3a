/**
 * `bitbucket`: Bitbucket Cloud OAuth 2.0 (https://developer.atlassian.com/cloud/bitbucket/oauth-2/),
 * profile from `GET /2.0/user` and the primary confirmed address of
 * `GET /2.0/user/emails`.
 * @module
 */
import type { Profile } from '../../../types.js';
import { definePreset, fetchJson, str, type PresetOptions } from './define.js';

export interface BitbucketOptions extends PresetOptions {
  endpoints?: PresetOptions['endpoints'] & { emails?: string };
}

/**
 * The primary confirmed address of a `GET /2.0/user/emails` page (`values[]` of `{email, is_primary,
 * is_confirmed}`).
 */
export function bitbucketPrimaryEmail(page: unknown): string | null {
  const values = (page as { values?: unknown } | null)?.values;
  if (!Array.isArray(values)) return null;
  const hit = values.find(
    (e: { email?: unknown; is_primary?: unknown; is_confirmed?: unknown } | null) =>
      e && e.is_primary === true && e.is_confirmed === true && typeof e.email === 'string',
  );
  return (hit?.email as string | undefined) ?? null;
}

/** Maps `GET /2.0/user` (+ the confirmed email): `uuid`, `display_name`, `links.avatar.href`. */
export function bitbucketProfile(p: Profile) {
  const email = str(p.confirmed_email);
  const avatar = (p.links as { avatar?: { href?: unknown } } | undefined)?.avatar?.href;
  return {
    id: String(p.uuid),
    name: str(p.display_name) ?? str(p.nickname),
    email,
    image: str(avatar),
    emailVerified: email ? new Date() : null,
  };
}

/**
 * Bitbucket sign-in (scope `account email`).
 * @example
 * ```ts
 * bitbucket({ clientId: process.env.BITBUCKET_KEY!, clientSecret: process.env.BITBUCKET_SECRET! })
 * ```
 */
export function bitbucket(options: BitbucketOptions) {
  const emails = options?.endpoints?.emails ?? 'https://api.bitbucket.org/2.0/user/emails';
  return definePreset<BitbucketOptions>({
    id: 'bitbucket',
    name: 'Bitbucket',
    type: 'oauth',
    endpoints: () => ({
      authorization: 'https://bitbucket.org/site/oauth2/authorize',
      token: 'https://bitbucket.org/site/oauth2/access_token',
      userinfo: 'https://api.bitbucket.org/2.0/user',
    }),
    scope: 'account email',
    userinfo: (e) => async (tokens, ctx) => {
      const authorization = `Bearer ${tokens.access_token}`;
      const user = await fetchJson(ctx, e.userinfo!, { authorization });
      const email = bitbucketPrimaryEmail(await fetchJson(ctx, emails, { authorization }).catch(() => null));
      return email ? { ...user, confirmed_email: email } : user;
    },
    profile: bitbucketProfile,
  })(stripEmails(options));
}

function stripEmails(options: BitbucketOptions): BitbucketOptions {
  if (!options?.endpoints?.emails) return options;
  const { emails: _emails, ...endpoints } = options.endpoints;
  return { ...options, endpoints };
}
