/**
 * The passkey provider's plugin: the WebAuthn ceremony routes under
 * `{basePath}/passkey`, with `origin` and `rpId` resolved at `createAuth`
 * (`origin` defaults to `baseURL`).
 * @internal
 * @module
 */
import { AuthConfigError } from '../../errors.js';
import type { RouteContext, RouteRateLimit, AuthPlugin } from '../../contract/types.js';
import type { ErrorCodesOf } from '../../errors/define.js';
import { PASSKEY_ERRORS } from './errors.js';
import type { PasskeyConfig } from './types.js';
import { checkOriginOnRpId } from './rp.js';
import { passkeyScript } from './assets.js';
import { passkeyMessages, passkeyStatus } from './messages.js';
import { escapeHtml } from '../../pages/html.js';
import { preloadSealing } from '../../http/sealed.js';
import {
  authenticateOptionsAction,
  authenticateVerifyAction,
  deletePasskeyAction,
  listPasskeysAction,
  passkeyBrowserScriptAction,
  passkeysPageAction,
  registerOptionsAction,
  registerVerifyAction,
  type ResolvedPasskey,
} from './routes.js';

/** Ceremonies start from anyone: their options count per client IP on the login limiter. */
function perIpLimit(ctx: RouteContext): RouteRateLimit | undefined {
  return ctx.auth.limiters.login ? { limiter: ctx.auth.limiters.login, mode: 'attempt' } : undefined;
}

/** Builds the plugin of a passkey configuration (its id is `passkey`: one per `createAuth`). */
export function passkeyPlugin(
  provider: PasskeyConfig,
): AuthPlugin<'passkey', unknown, Record<never, never>, ErrorCodesOf<typeof PASSKEY_ERRORS>> {
  let resolved: ResolvedPasskey | undefined;
  const config = (): ResolvedPasskey => resolved!;
  return {
    id: 'passkey',
    errorCodes: PASSKEY_ERRORS,
    signInMethods: [
      {
        id: provider.id,
        name: provider.name,
        type: 'passkey',
        urls: { authenticateUrl: '/passkey/authenticate/options', registerUrl: '/passkey/register/options' },
        signInForm: ({ basePath, csrfToken, callbackUrl, locale }) => {
          const t = passkeyMessages.for(locale);
          return `<button type="button" data-passkey="authenticate">${escapeHtml(t('passkey.signIn'))}</button><p id="passkey-status" role="status"></p>${passkeyScript(basePath, csrfToken, callbackUrl, passkeyStatus(t))}`;
        },
      },
    ],
    init(auth) {
      if (!auth.adapter)
        throw new AuthConfigError(
          `Invalid auth config: the passkey provider "${provider.id}" needs \`adapter\` (credentials are stored)`,
        );
      const origin = provider.origin ?? auth.originPolicy.baseURL;
      if (!origin)
        throw new AuthConfigError(
          `Invalid provider: "${provider.id}": origin is required: give passkey({ origin }) or createAuth({ baseURL }) (AUTH_URL)`,
        );
      const rpId = checkOriginOnRpId(provider.id, origin, provider.rpId);
      resolved = Object.freeze({ ...provider, origin, rpId });
      preloadSealing(); // ceremonies seal their challenge
      return undefined;
    },
    routes: {
      passkey: { GET: passkeysPageAction },
      'passkey/browser.js': { GET: passkeyBrowserScriptAction },
      'passkey/credentials': { GET: listPasskeysAction },
      'passkey/delete': { POST: (ctx) => deletePasskeyAction(ctx, config()) },
      'passkey/register/options': { POST: (ctx) => registerOptionsAction(ctx, config()), rateLimit: perIpLimit },
      'passkey/register/verify': { POST: (ctx) => registerVerifyAction(ctx, config()) },
      'passkey/authenticate/options': {
        POST: (ctx) => authenticateOptionsAction(ctx, config()),
        rateLimit: perIpLimit,
      },
      'passkey/authenticate/verify': { POST: (ctx) => authenticateVerifyAction(ctx, config()) },
    },
  };
}
