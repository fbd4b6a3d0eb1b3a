/**
 * `codehost`: a GitHub-style OAuth 2.0 provider (GitHub's OAuth apps:
 * https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps).
 * @module
 */
import type { Profile } from '../../../types.js';
import { oauthProvider } from '../create.js';
import type { OAuthProvider, ProfileContext, TokenSet } from '../types.js';

/** Options of {@link codehost}. */
export interface CodehostOptions {
  /** Provider id in `/signin/:id` and the stored accounts. Default `codehost` (`github()` defaults to `github`). */
  id?: string;
  clientId: string;
  clientSecret: string;
  /** Default `read:user user:email`. */
  scope?: string;
  /** Endpoint overrides (GitHub Enterprise Server, tests). Defaults are github.com's. */
  endpoints?: { authorization?: string; token?: string; userinfo?: string; emails?: string };
  /** Link to an existing user by a verified primary email. Default false. */
  trustEmail?: boolean;
}

interface EmailEntry {
  email: string;
  primary: boolean;
  verified: boolean;
}

/** Picks the primary verified address from `GET /user/emails`. */
export function primaryVerifiedEmail(entries: unknown): string | null {
  if (!Array.isArray(entries)) return null;
  const found = (entries as EmailEntry[]).find(
    (e) => e && e.primary === true && e.verified === true && typeof e.email === 'string',
  );
  return found?.email ?? null;
}

/** Maps GitHub's `GET /user` (+ the emails API result) to a user profile. */
export function codehostProfile(profile: Profile) {
  const verified = typeof profile.verified_email === 'string' ? profile.verified_email : null;
  return {
    id: String(profile.id),
    name: (profile.name as string | null) ?? (profile.login as string),
    email: verified ?? ((profile.email as string | null) || null),
    image: (profile.avatar_url as string | null) ?? null,
    emailVerified: verified ? new Date() : null,
  };
}

/**
 * GitHub-style sign-in. A private email is fetched from the emails API and
 * the primary verified one is used. Every request carries a `User-Agent`
 * (GitHub refuses requests without one). GitHub answers token errors with
 * HTTP 200 and an `error` field; those are turned into the RFC 6749 §5.2
 * error they are.
 *
 * @example
 * ```ts
 * codehost({ clientId: process.env.GITHUB_ID!, clientSecret: process.env.GITHUB_SECRET! })
 * ```
 */
export function codehost(options: CodehostOptions): OAuthProvider {
  const e = options?.endpoints ?? {};
  const emailsUrl = e.emails ?? 'https://api.github.com/user/emails';
  const userUrl = e.userinfo ?? 'https://api.github.com/user';
  return oauthProvider({
    id: options?.id ?? 'codehost',
    name: 'GitHub',
    type: 'oauth',
    clientId: options?.clientId,
    clientSecret: options?.clientSecret,
    endpoints: {
      authorization: e.authorization ?? 'https://github.com/login/oauth/authorize',
      token: e.token ?? 'https://github.com/login/oauth/access_token',
      userinfo: userUrl,
    },
    scope: options?.scope ?? 'read:user user:email',
    clientAuth: 'client_secret_post',
    headers: { 'user-agent': 'framework-auth', 'x-github-api-version': '2022-11-28' },
    trustEmail: options?.trustEmail ?? false,
    tokenErrorsWith200: true,
    async userinfo(tokens: TokenSet, ctx: ProfileContext) {
      const headers = { authorization: `Bearer ${tokens.access_token}`, accept: 'application/vnd.github+json' };
      const res = await ctx.fetch(userUrl, { headers });
      if (!res.ok) throw new Error(`GitHub /user answered HTTP ${res.status}`);
      const profile = (await res.json()) as Profile;
      const emails = await ctx.fetch(emailsUrl, { headers });
      if (emails.ok) {
        const email = primaryVerifiedEmail(await emails.json());
        if (email) profile.verified_email = email;
      }
      return profile;
    },
    profile: codehostProfile,
  });
}

/** Options of {@link github}: those of {@link codehost}. */
export type GithubOptions = CodehostOptions;

/**
 * GitHub sign-in under its real name: {@link codehost} with the default id `github`.
 * @example
 * ```ts
 * github({ clientId: process.env.GITHUB_ID!, clientSecret: process.env.GITHUB_SECRET! })
 * ```
 */
export function github(options: GithubOptions): OAuthProvider {
  return codehost({ ...options, id: options?.id ?? 'github' });
}
