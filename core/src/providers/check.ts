import { AuthConfigError } from '../errors.js';
import type { Provider } from './types.js';

const ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const FIELD = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const INPUT_TYPES = new Set(['text', 'email', 'password']);
/** Body fields the kit itself reads; a credentials field may not shadow them. */
const RESERVED_FIELDS = new Set(['csrfToken', 'callbackUrl', 'redirectTo', 'redirect', 'json']);

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const u = new URL(value);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

function fail(message: string): never {
  throw new AuthConfigError(`Invalid provider: ${message}`);
}

/**
 * Validates a provider record and returns it frozen.
 * @throws AuthConfigError (`INVALID_CONFIG`) with a precise message.
 */
export function checkProvider(provider: Provider): Provider {
  if (provider === null || typeof provider !== 'object') fail('a provider must be an object');
  if (typeof provider.id !== 'string' || !ID.test(provider.id)) {
    fail(`id must be 1–64 lowercase letters, digits, "-" or "_", got ${JSON.stringify(provider.id)}`);
  }
  if (typeof provider.name !== 'string' || provider.name.length === 0)
    fail(`"${provider.id}": name must be a non-empty string`);
  switch (provider.type) {
    case 'credentials': {
      if (typeof provider.authorize !== 'function') fail(`"${provider.id}": authorize must be a function`);
      const fields = provider.credentials;
      if (fields === null || typeof fields !== 'object' || Object.keys(fields).length === 0) {
        fail(`"${provider.id}": credentials must map at least one field name to {label, type}`);
      }
      for (const [name, input] of Object.entries(fields)) {
        if (!FIELD.test(name) || RESERVED_FIELDS.has(name))
          fail(`"${provider.id}": bad or reserved field name ${JSON.stringify(name)}`);
        if (!input || typeof input.label !== 'string') fail(`"${provider.id}": field "${name}" needs a string label`);
        if (!INPUT_TYPES.has(input.type))
          fail(`"${provider.id}": field "${name}" type must be text, email or password`);
      }
      break;
    }
    case 'oauth':
    case 'oidc': {
      const p = provider;
      if (typeof p.clientId !== 'string' || p.clientId.length === 0)
        fail(`"${p.id}": clientId must be a non-empty string`);
      if (!(
        typeof p.clientSecret === 'function' ||
        (typeof p.clientSecret === 'string' && p.clientSecret.length > 0)
      )) {
        fail(`"${p.id}": clientSecret must be a non-empty string`);
      }
      if (typeof p.profile !== 'function') fail(`"${p.id}": profile must be a function`);
      for (const [name, url] of Object.entries({ issuer: p.issuer, ...p.endpoints })) {
        if (url !== undefined && !isHttpUrl(url))
          fail(`"${p.id}": ${name} must be an http(s) URL, got ${JSON.stringify(url)}`);
      }
      if (p.issuer === undefined) {
        for (const name of ['authorization', 'token'] as const) {
          if (!p.endpoints[name])
            fail(`"${p.id}": the ${name} endpoint is required (or give an OIDC issuer for discovery)`);
        }
        if (!p.endpoints.userinfo && !p.userinfo)
          fail(`"${p.id}": the userinfo endpoint is required (or give an OIDC issuer)`);
      }
      if (p.responseMode !== 'query' && p.responseMode !== 'form_post')
        fail(`"${p.id}": responseMode must be query or form_post`);
      break;
    }
    case 'email': {
      const p = provider;
      if (typeof p.from !== 'string' || !p.from.includes('@')) fail(`"${p.id}": from must be an email address`);
      if (typeof p.sendVerificationRequest !== 'function')
        fail(`"${p.id}": sendVerificationRequest must be a function`);
      if (typeof p.maxAge !== 'number' || !Number.isFinite(p.maxAge) || p.maxAge <= 0)
        fail(`"${p.id}": maxAge must be a positive number of seconds`);
      break;
    }
    default:
      fail(`unknown provider type ${JSON.stringify((provider as { type?: unknown }).type)}`);
  }
  return Object.freeze({ ...provider });
}

/**
 * Checks a provider list: each valid, ids unique.
 * @throws AuthConfigError on a duplicate id.
 */
export function checkProviders(providers: readonly Provider[]): ReadonlyMap<string, Provider> {
  if (!Array.isArray(providers)) throw new AuthConfigError('Invalid auth config: providers must be an array');
  const map = new Map<string, Provider>();
  for (const p of providers) {
    const checked = checkProvider(p);
    if (map.has(checked.id)) throw new AuthConfigError(`Invalid auth config: duplicate provider id "${checked.id}"`);
    map.set(checked.id, checked);
  }
  return map;
}
