/** OAuth 2.0 / OIDC providers: the custom provider and the presets. @module */
export { createOAuth2Provider, type OAuth2ProviderOptions } from './create.js';
export { codehost, type CodehostOptions } from './presets/codehost.js';
export { search, type SearchOptions } from './presets/search.js';
export { chat, type ChatOptions } from './presets/chat.js';
export { device, type DeviceOptions } from './presets/device.js';
export type { OAuthProvider, OAuthEndpoints, UserProfile, TokenSet, ProfileContext } from './types.js';
