/**
 * The routes of `sso()` under `basePath`: provider and domain management for organization managers, the sign-in
 * that routes by a verified email domain, and the OIDC callback. JSON for API clients; browsers get the no-JS
 * pages (a refused form shows its page again with the reason). Every POST but the IdP's own is CSRF-checked.
 * @module
 * @internal
 */
import {
  AuthError,
  cookieCaller,
  csrfFor,
  errorMessageFor,
  pageLocale,
  resolveCallbackUrl,
  signInRedirect,
  type Action,
  type ActionResult,
  type Caller,
  type PluginRoute,
  type RouteContext,
} from '../../plugin-kit.js';
import { claimDomain, domainView, emailDomain, parseDomain, verifyDomain, type DomainChallenge } from './domains.js';
import { ssoError } from './errors.js';
import { checkIssuerUrl } from './issuer-policy.js';
import type { ResolvedSsoOptions } from './options.js';
import { ssoMessages, type SsoMessageId } from './messages.js';
import { ssoManagePage, ssoSignInPage } from './pages.js';
import { updatedProvider } from './provider-update.js';
import { providerFromForm, providerView } from './providers.js';
import { fetchIdpMetadata } from './saml-metadata-url.js';
import type { SsoPluginState } from './state.js';
import type { SsoProviderRecord } from './types.js';

const NO_STORE = { 'cache-control': 'no-store', 'referrer-policy': 'same-origin' };
const WHAT = 'The single sign-on routes';
type Outcome = {
  json: Record<string, unknown>;
  /** The page's notice: a message key and its parameters. */
  notice?: [SsoMessageId, Record<string, string>?];
  challenge?: DomainChallenge;
};

/** The organization a manager route names: `organizationId` from the body (POST) or the query (GET). */
const organizationKey = (ctx: RouteContext) =>
  ctx.request.method === 'POST' ? ctx.body.organizationId : ctx.url.searchParams.get('organizationId');

/** The provider to sign in with: by id, by organization slug, or by the email's verified domain. */
async function signInTarget(ctx: RouteContext, o: ResolvedSsoOptions, s: SsoPluginState): Promise<SsoProviderRecord> {
  const storage = s.storage();
  const { email, organizationSlug, providerId } = ctx.body;
  if (providerId) {
    const found = await storage.getProvider(providerId);
    if (found) return found;
  } else if (organizationSlug) {
    const organization = await o.access().get(organizationSlug);
    const [first] = organization ? await storage.listProviders(organization.id) : [];
    if (first) return first;
  } else if (email) {
    const domain = emailDomain(email);
    // Only a domain an organization proved routes: an unverified claim never sends anyone to an IdP.
    const claim = domain ? await storage.verifiedDomain(domain) : null;
    const providers = claim ? await storage.listProviders(claim.organizationId) : [];
    const chosen = providers.find((p) => p.domain === domain) ?? providers.find((p) => p.domain === null);
    if (chosen) return chosen;
  }
  throw ssoError('SSO_NO_PROVIDER');
}

/** The routes. */
export function ssoRoutes(o: ResolvedSsoOptions, s: SsoPluginState): Record<string, PluginRoute> {
  async function managePage(
    ctx: RouteContext,
    caller: Caller,
    key: string | null | undefined,
    message: { notice?: [SsoMessageId, Record<string, string>?]; error?: string; challenge?: DomainChallenge } = {},
    status = 200,
  ): Promise<ActionResult> {
    const { organization } = await o.access().managerOf(caller, key);
    const { token, cookie } = await csrfFor(ctx);
    const html = ssoManagePage({
      basePath: ctx.auth.config.basePath,
      csrfToken: token,
      organization: { id: organization.id, name: organization.name },
      providers: (await s.storage().listProviders(organization.id)).map(providerView),
      domains: (await s.storage().listDomains(organization.id)).map(domainView),
      samlAvailable: s.saml !== undefined,
      locale: pageLocale(ctx),
      ...(message.notice ? { notice: ssoMessages.for(pageLocale(ctx))(...message.notice) } : {}),
      ...(message.error ? { error: message.error } : {}),
      ...(message.challenge ? { challenge: message.challenge } : {}),
    });
    return { status, html, cookies: [...caller.cookies, ...(cookie ? [cookie] : [])], headers: NO_STORE };
  }

  /** A manager's POST: JSON `{ok: true, ...}`, or for browsers the manage page with the outcome. */
  function manage(run: (ctx: RouteContext, organizationId: string, role: string) => Promise<Outcome>): Action {
    return async (ctx) => {
      const caller = await cookieCaller(ctx, WHAT);
      try {
        const { organization, membership } = await o.access().managerOf(caller, organizationKey(ctx));
        const out = await run(ctx, organization.id, membership.role);
        if (ctx.wantsJson)
          return { status: 200, json: { ok: true, ...out.json }, cookies: caller.cookies, headers: NO_STORE };
        return managePage(ctx, caller, organization.id, {
          ...(out.notice ? { notice: out.notice } : {}),
          ...(out.challenge ? { challenge: out.challenge } : {}),
        });
      } catch (error) {
        if (ctx.wantsJson || !(error instanceof AuthError) || error.status >= 500 || error.status === 404) throw error;
        return managePage(
          ctx,
          caller,
          organizationKey(ctx),
          { error: errorMessageFor(ctx, error, ssoMessages) },
          error.status,
        );
      }
    };
  }

  /** A manager's JSON read. */
  function read(run: (organizationId: string) => Promise<Record<string, unknown>>): Action {
    return async (ctx) => {
      const caller = await cookieCaller(ctx, WHAT);
      const { organization } = await o.access().managerOf(caller, organizationKey(ctx));
      return { status: 200, json: await run(organization.id), cookies: caller.cookies, headers: NO_STORE };
    };
  }

  const now = (ctx: RouteContext) => new Date(ctx.auth.clock.now());
  // Claiming writes a claim and verifying looks up DNS: counted per client IP on the login limiter. The sign-in start and the callbacks are
  // not limited, as the core's OAuth routes are not (a company behind one address signs in through them at once).
  const dnsLimit = (ctx: RouteContext) =>
    ctx.auth.limiters.login ? { limiter: ctx.auth.limiters.login, mode: 'count' as const, identifier: '' } : undefined;

  return {
    'sso/sign-in': {
      async GET(ctx) {
        const { token, cookie } = await csrfFor(ctx);
        const callbackUrl = await resolveCallbackUrl(ctx, ctx.url.searchParams.get('callbackUrl'));
        const html = ssoSignInPage({
          basePath: ctx.auth.config.basePath,
          csrfToken: token,
          callbackUrl,
          locale: pageLocale(ctx),
        });
        return { status: 200, html, cookies: cookie ? [cookie] : [], headers: NO_STORE };
      },
      async POST(ctx) {
        try {
          const record = await signInTarget(ctx, o, s);
          if (record.type === 'saml') {
            if (!s.saml) throw ssoError('SSO_SAML_UNAVAILABLE');
            return await s.saml.start(ctx, record);
          }
          // Checked again: the issuer's name may point inside since it was registered.
          await checkIssuerUrl(record.oidc!.issuer, s.issuerPolicy());
          return await s.oidc.start(ctx, record);
        } catch (error) {
          if (ctx.wantsJson || !(error instanceof AuthError) || error.status >= 500) throw error;
          const { token, cookie } = await csrfFor(ctx);
          const callbackUrl = await resolveCallbackUrl(ctx, ctx.body.callbackUrl);
          const html = ssoSignInPage({
            basePath: ctx.auth.config.basePath,
            csrfToken: token,
            callbackUrl,
            error: errorMessageFor(ctx, error, ssoMessages),
            locale: pageLocale(ctx),
          });
          return { status: error.status, html, cookies: cookie ? [cookie] : [], headers: NO_STORE };
        }
      },
    },
    'sso/callback/:provider': {
      async GET(ctx) {
        const record = ctx.providerId ? await s.storage().getProvider(ctx.providerId) : null;
        if (!record || record.type !== 'oidc') throw ssoError('SSO_PROVIDER_NOT_FOUND');
        await checkIssuerUrl(record.oidc!.issuer, s.issuerPolicy());
        return s.oidc.callback(ctx, record);
      },
    },
    'sso/manage': {
      async GET(ctx) {
        const signInFirst = await signInRedirect(ctx);
        if (signInFirst) return signInFirst;
        return managePage(ctx, await cookieCaller(ctx, WHAT), organizationKey(ctx));
      },
    },
    'sso/providers': {
      GET: read(async (organizationId) => ({
        providers: (await s.storage().listProviders(organizationId)).map(providerView),
      })),
    },
    'sso/providers/register': {
      POST: manage(async (ctx, organizationId, role) => {
        // The issuer policy first, so a refused issuer or metadata URL (plain http included) gets its own code.
        const type = ctx.body.type ?? 'oidc';
        const fetchedFrom = (type === 'oidc' ? ctx.body.issuer : type === 'saml' ? ctx.body.metadataUrl : '')?.trim();
        if (fetchedFrom && URL.canParse(fetchedFrom)) await checkIssuerUrl(fetchedFrom, s.issuerPolicy());
        const record = await providerFromForm({
          body: ctx.body,
          organizationId,
          roles: o.access().roles,
          managerRole: role,
          cipher: s.cipher(),
          now: now(ctx),
          parseSamlMetadata: s.saml?.parseMetadata,
          fetchSamlMetadata: (url) => fetchIdpMetadata(url, s.issuerPolicy(), o.fetch),
        });
        if (!(await s.storage().createProvider(record))) throw ssoError('SSO_PROVIDER_EXISTS');
        return { json: { provider: providerView(record) }, notice: ['sso.manage.registered', { name: record.name }] };
      }),
    },
    // A partial update. Plugin routes take GET and POST only, so it is a POST, as registering and deleting are.
    'sso/providers/update': {
      POST: manage(async (ctx, organizationId, role) => {
        const existing = await s.storage().getProvider(ctx.body.providerId ?? '');
        if (!existing || existing.organizationId !== organizationId) throw ssoError('SSO_PROVIDER_NOT_FOUND');
        const fetchedFrom = (existing.type === 'oidc' ? ctx.body.issuer : ctx.body.metadataUrl)?.trim();
        if (fetchedFrom && URL.canParse(fetchedFrom)) await checkIssuerUrl(fetchedFrom, s.issuerPolicy());
        const record = await updatedProvider({
          existing,
          body: ctx.body,
          roles: o.access().roles,
          managerRole: role,
          cipher: s.cipher(),
          parseSamlMetadata: s.saml?.parseMetadata,
          fetchSamlMetadata: (url) => fetchIdpMetadata(url, s.issuerPolicy(), o.fetch),
        });
        if (!(await s.storage().updateProvider(record))) throw ssoError('SSO_PROVIDER_NOT_FOUND');
        s.oidc.forget(record.id);
        return { json: { provider: providerView(record) }, notice: ['sso.manage.updated', { name: record.name }] };
      }),
    },
    'sso/providers/delete': {
      POST: manage(async (ctx, organizationId) => {
        const id = ctx.body.providerId ?? '';
        if (!(await s.storage().deleteProvider(organizationId, id))) throw ssoError('SSO_PROVIDER_NOT_FOUND');
        s.oidc.forget(id);
        return { json: {}, notice: ['sso.manage.removed'] };
      }),
    },
    'sso/domains': {
      GET: read(async (organizationId) => ({
        domains: (await s.storage().listDomains(organizationId)).map(domainView),
      })),
    },
    'sso/domains/claim': {
      POST: manage(async (ctx, organizationId) => {
        const domain = parseDomain(ctx.body.domain);
        const held = await s.storage().listDomains(organizationId);
        // Renewing the token of a held claim is always allowed; a new claim only below the cap.
        if (!held.some((d) => d.domain === domain) && held.length >= o.maxDomains) throw ssoError('SSO_DOMAIN_LIMIT');
        const challenge = await claimDomain(s.storage(), organizationId, domain, now(ctx));
        return { json: { ...challenge }, challenge };
      }),
      rateLimit: dnsLimit,
    },
    'sso/domains/verify': {
      POST: manage(async (ctx, organizationId) => {
        const claim = await verifyDomain(
          s.storage(),
          o.resolveTxt,
          organizationId,
          parseDomain(ctx.body.domain),
          now(ctx),
        );
        return { json: { domain: domainView(claim) }, notice: ['sso.manage.domainVerified', { domain: claim.domain }] };
      }),
      rateLimit: dnsLimit,
    },
    ...(s.saml ? s.saml.routes : {}),
  };
}
