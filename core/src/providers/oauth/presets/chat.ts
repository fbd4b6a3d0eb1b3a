/**
 * `chat`: a Discord-style OAuth 2.0 provider
 * (https://discord.com/developers/docs/topics/oauth2).
 * @module
 */
import type { Profile } from '../../../types.js';
import { oauthProvider } from '../create.js';
import type { OAuthProvider } from '../types.js';

export interface ChatOptions {
  /** Provider id in `/signin/:id` and the stored accounts. Default `chat` (`discord()` defaults to `discord`). */
  id?: string;
  clientId: string;
  clientSecret: string;
  /** Default `identify email`. */
  scope?: string;
  /** Endpoint overrides (tests). Defaults are discord.com's. */
  endpoints?: { authorization?: string; token?: string; userinfo?: string };
  /** CDN base for avatars. Default `https://cdn.discordapp.com`. */
  cdn?: string;
  /** Link to an existing user by a verified email. Default false. */
  trustEmail?: boolean;
}

/**
 * The avatar URL per Discord's image formatting docs: a custom avatar
 * (`a_` hashes are animated GIFs), else the default avatar, whose index is
 * `(id >> 22) % 6` for new usernames (discriminator `0`) and
 * `discriminator % 5` for legacy ones.
 */
export function chatAvatarUrl(profile: Profile, cdn = 'https://cdn.discordapp.com'): string {
  const id = String(profile.id);
  const avatar = profile.avatar;
  if (typeof avatar === 'string' && avatar.length > 0) {
    return `${cdn}/avatars/${id}/${avatar}.${avatar.startsWith('a_') ? 'gif' : 'png'}`;
  }
  const discriminator = String(profile.discriminator ?? '0');
  let index: number;
  try {
    index = discriminator === '0' ? Number((BigInt(id) >> 22n) % 6n) : Number(discriminator) % 5;
  } catch {
    index = 0;
  }
  return `${cdn}/embed/avatars/${index}.png`;
}

/** Maps Discord's `GET /users/@me` to a user profile. */
export function chatProfile(profile: Profile, cdn?: string) {
  return {
    id: String(profile.id),
    name: (profile.global_name as string | null) ?? (profile.username as string),
    email: (profile.email as string | null) ?? null,
    image: chatAvatarUrl(profile, cdn),
    emailVerified: profile.verified === true && profile.email ? new Date() : null,
  };
}

/**
 * Discord-style sign-in.
 * @example
 * ```ts
 * chat({ clientId: process.env.DISCORD_ID!, clientSecret: process.env.DISCORD_SECRET! })
 * ```
 */
export function chat(options: ChatOptions): OAuthProvider {
  const e = options?.endpoints ?? {};
  const cdn = options?.cdn;
  return oauthProvider({
    id: options?.id ?? 'chat',
    name: 'Discord',
    type: 'oauth',
    clientId: options?.clientId,
    clientSecret: options?.clientSecret,
    endpoints: {
      authorization: e.authorization ?? 'https://discord.com/oauth2/authorize',
      token: e.token ?? 'https://discord.com/api/oauth2/token',
      userinfo: e.userinfo ?? 'https://discord.com/api/users/@me',
    },
    scope: options?.scope ?? 'identify email',
    trustEmail: options?.trustEmail ?? false,
    profile: (p) => chatProfile(p, cdn),
  });
}

/** Options of {@link discord}: those of {@link chat}. */
export type DiscordOptions = ChatOptions;

/**
 * Discord sign-in under its real name: {@link chat} with the default id `discord`.
 * @example
 * ```ts
 * discord({ clientId: process.env.DISCORD_ID!, clientSecret: process.env.DISCORD_SECRET! })
 * ```
 */
export function discord(options: DiscordOptions): OAuthProvider {
  return chat({ ...options, id: options?.id ?? 'discord' });
}
