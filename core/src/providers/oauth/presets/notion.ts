/**
 * `notion`: Notion public connections (https://developers.notion.com/docs/authorization),
 * profile from `GET /v1/users/me` (the token's bot user, whose owner is the
 * person who signed in).
 * @module
 */
import type { Profile } from '../../../types.js';
import { definePreset, str, type PresetOptions } from './define.js';

export type NotionOptions = PresetOptions;

/** Maps the bot user of `GET /v1/users/me` to its owner (`bot.owner.user`: id, name, avatar_url, person.email). */
export function notionProfile(p: Profile) {
  const user = ((p.bot as { owner?: { user?: Profile } } | undefined)?.owner?.user ?? {}) as Profile;
  const person = (user.person ?? {}) as Profile;
  return {
    id: String(user.id),
    name: str(user.name),
    email: str(person.email),
    image: str(user.avatar_url),
    emailVerified: null,
  };
}

/**
 * Notion sign-in (`owner=user`; Notion has no scopes; requests carry the
 * `Notion-Version` header).
 * @example
 * ```ts
 * notion({ clientId: process.env.NOTION_ID!, clientSecret: process.env.NOTION_SECRET! })
 * ```
 */
export const notion = /* @__PURE__ */ definePreset<NotionOptions>({
  id: 'notion',
  name: 'Notion',
  type: 'oauth',
  endpoints: () => ({
    authorization: 'https://api.notion.com/v1/oauth/authorize',
    token: 'https://api.notion.com/v1/oauth/token',
    userinfo: 'https://api.notion.com/v1/users/me',
  }),
  scope: '',
  authorizationParams: { owner: 'user' },
  headers: { 'notion-version': '2022-06-28' },
  profile: notionProfile,
});
