/**
 * SAML 2.0 SSO: the SP-initiated start (HTTP-Redirect AuthnRequest), the SP metadata, and the ACS (HTTP-POST
 * binding) whose signed response is validated by the SAML module (`./saml/`), then signs in through the kit's
 * OAuth account rules and `completeSignIn` (pre-hijacking defence included) and writes the membership.
 *
 * The ACS is a cross-site POST from the IdP, so it skips the CSRF checks by design: the signed response is the
 * proof. An SP-initiated response must also come back to the browser that started it: its `RelayState` must equal
 * the random value sealed in this browser's flow cookie (login CSRF), and its `InResponseTo` must name a request
 * id this app sent and has not seen answered (single use, in the plugin's storage). IdP-initiated responses (no
 * `InResponseTo`) are refused unless `allowIdpInitiated`.
 * @module
 * @internal
 */
import {
  AuthError,
  applyOAuthSignIn,
  completeSignIn,
  errorResult,
  expiredCookie,
  planOAuthSignIn,
  randomString,
  readCookie,
  resolveCallbackUrl,
  seal,
  sha256Hex,
  timingSafeEqual,
  unseal,
  type ActionResult,
  type OutCookie,
  type PluginRoute,
  type RouteContext,
} from '../../plugin-kit.js';
import { vouchedEmail } from './domains.js';
import { ssoError } from './errors.js';
import { accountProviderId } from './oidc.js';
import type { ResolvedSsoOptions } from './options.js';
import { mappedRole } from './providers.js';
import { SamlError, createSamlServiceProvider, parseIdpMetadata, type SamlProfile } from './saml/index.js';
import type { SamlSide } from './state.js';
import type { SsoProviderRecord, SsoStorage } from './types.js';

const PURPOSE = 'sso-saml-flow';
/** How long a started SAML sign-in waits for the IdP's answer, in seconds. */
const FLOW_MAX_AGE = 600;

interface FlowCookie {
  /** The provider id. */
  p: string;
  /** The RelayState sent with the AuthnRequest. */
  r: string;
  /** Where to go after the sign-in. */
  c: string;
}

/** The SP's URLs for a provider: its entity id is its metadata URL. */
function spOf(ctx: RouteContext, providerId: string) {
  const base = `${ctx.origin}${ctx.auth.config.basePath}/sso/saml`;
  return { entityId: `${base}/metadata/${providerId}`, acsUrl: `${base}/acs/${providerId}` };
}

function cookieOptions(ctx: RouteContext) {
  const secure = ctx.auth.config.cookies.sessionToken.options.secure;
  // The IdP posts back across sites: only a SameSite=None cookie comes along (it needs Secure); on plain http (local
  // development, IdP on the same site) Lax.
  return {
    name: `${secure ? '__Secure-' : ''}framework.sso.saml`,
    options: {
      httpOnly: true,
      secure,
      sameSite: secure ? ('none' as const) : ('lax' as const),
      path: ctx.auth.config.basePath,
    },
  };
}

/** The SAML side of `sso()`, its single-use ids in `storage()`. */
export function samlSide(o: ResolvedSsoOptions, storage: () => SsoStorage): SamlSide {
  const serviceProvider = (ctx: RouteContext, record: SsoProviderRecord) => {
    const now = () => ctx.auth.clock.now();
    // Ids are kept as SHA-256 hashes under the provider's id: fixed-length keys, one namespace per IdP.
    const key = async (id: string) => sha256Hex(`${record.id}\n${id}`);
    return createSamlServiceProvider({
      sp: spOf(ctx, record.id),
      idp: record.saml!,
      ...(o.samlKeys ? { keys: o.samlKeys } : {}),
      now,
      clockSkewSeconds: o.clockSkewSeconds,
      allowIdpInitiated: o.allowIdpInitiated,
      replay: { remember: async (id, untilMs) => storage().rememberOnce('assertion', await key(id), untilMs, now()) },
      requests: {
        async save(id, untilMs) {
          await storage().rememberOnce('request', await key(id), untilMs, now());
        },
        take: async (id) => storage().takeOnce('request', await key(id), now()),
      },
    });
  };

  const samlProvider = async (ctx: RouteContext): Promise<SsoProviderRecord> => {
    const record = ctx.providerId ? await storage().getProvider(ctx.providerId) : null;
    if (!record || record.type !== 'saml' || !record.saml) throw ssoError('SSO_PROVIDER_NOT_FOUND');
    return record;
  };

  /** Where an answer to this browser goes after sign-in, from its flow cookie; null when it does not match. */
  async function flowOf(ctx: RouteContext, record: SsoProviderRecord, relayState: string | undefined) {
    const { name } = cookieOptions(ctx);
    const flow = (await unseal(
      readCookie(ctx.request.headers.get('cookie'), name),
      ctx.auth.signingKey,
      PURPOSE,
      ctx.auth.clock,
    )) as Partial<FlowCookie> | null;
    if (!flow || flow.p !== record.id || typeof flow.r !== 'string' || typeof flow.c !== 'string') return null;
    if (typeof relayState !== 'string' || !timingSafeEqual(flow.r, relayState)) return null;
    return flow.c;
  }

  /** Signs in the person a validated response names. */
  async function signIn(
    ctx: RouteContext,
    record: SsoProviderRecord,
    profile: SamlProfile,
    callbackUrl: string,
    cookies: OutCookie[],
  ): Promise<ActionResult> {
    const adapter = ctx.auth.adapter!;
    const email = profile.email?.trim() || null;
    // SAML carries no email_verified: the IdP vouches only for addresses in a domain its organization proved.
    const vouched = await vouchedEmail(storage(), record.organizationId, email, true);
    const displayName = profile.attributes.displayName?.[0] ?? profile.attributes.name?.[0] ?? null;
    const provider = { id: await accountProviderId(record), trustEmail: true };
    const current = await ctx.auth.readSession(ctx.request, { fresh: true });
    const plan = await planOAuthSignIn(
      adapter,
      provider,
      { id: profile.nameId, email, name: displayName, emailVerified: vouched ? new Date(ctx.auth.clock.now()) : null },
      current.user?.id ?? null,
    );
    // `AccountType` is a closed union without SAML (README, Decisions): stored as `oauth` under `sso-<id>-<hash>`.
    const account = {
      userId: plan.user.id,
      type: 'oauth' as const,
      provider: provider.id,
      providerAccountId: profile.nameId,
    };
    const access = o.access();
    return completeSignIn(ctx, {
      user: plan.user,
      account,
      profile: { ...profile.attributes, nameId: profile.nameId, ...(email ? { email } : {}) },
      emailProven:
        vouched && Boolean(plan.user.email) && plan.user.email!.trim().toLowerCase() === email!.toLowerCase(),
      isNewUser: plan.kind === 'create',
      callbackUrl,
      persist: async () => {
        const user = plan.kind === 'existing' ? plan.user : await applyOAuthSignIn(adapter, plan, account);
        const role = mappedRole(
          record.roleMapping ?? o.roleMapping,
          profile.attributes,
          access.roles,
          access.defaultRole,
        );
        await access.join(record.organizationId, user.id, role);
        return user;
      },
      cookies,
    });
  }

  /** `POST /sso/saml/acs/:provider`: the IdP's HTTP-POST response. */
  async function acs(ctx: RouteContext): Promise<ActionResult> {
    const clear = [expiredCookie(cookieOptions(ctx).name, cookieOptions(ctx).options)];
    try {
      const record = await samlProvider(ctx);
      const relayState = typeof ctx.body.RelayState === 'string' ? ctx.body.RelayState : undefined;
      let profile: SamlProfile;
      try {
        profile = await serviceProvider(ctx, record).validatePostResponse({
          ...(typeof ctx.body.SAMLResponse === 'string' ? { SAMLResponse: ctx.body.SAMLResponse } : {}),
          ...(relayState !== undefined ? { RelayState: relayState } : {}),
        });
      } catch (error) {
        if (!(error instanceof SamlError)) throw error;
        ctx.auth.logger.warn(`[auth] sso ${record.id}: SAML response refused: ${error.code}`);
        throw ssoError('SSO_SAML_REJECTED');
      }
      let callbackUrl: string;
      if (profile.inResponseTo !== undefined) {
        const fromFlow = await flowOf(ctx, record, relayState);
        if (fromFlow === null) {
          ctx.auth.logger.warn(`[auth] sso ${record.id}: SAML response without this browser's flow or RelayState`);
          throw ssoError('SSO_SAML_REJECTED');
        }
        callbackUrl = fromFlow;
      } else {
        // IdP-initiated (allowed by the option): a RelayState may name where to go, checked as any callbackUrl.
        callbackUrl = await resolveCallbackUrl(ctx, relayState ?? null);
      }
      return await signIn(ctx, record, profile, callbackUrl, clear);
    } catch (error) {
      if (!ctx.wantsJson && error instanceof AuthError) {
        const result = errorResult(ctx, error);
        return { ...result, cookies: [...(result.cookies ?? []), ...clear] };
      }
      throw error;
    }
  }

  const routes: Record<string, PluginRoute> = {
    'sso/saml/metadata/:provider': {
      async GET(ctx) {
        const record = await samlProvider(ctx);
        return {
          status: 200,
          text: serviceProvider(ctx, record).metadataXml(),
          contentType: 'application/samlmetadata+xml; charset=utf-8',
        };
      },
    },
    // The signed response is the proof, and RelayState + the flow cookie bind it to the browser: no CSRF token.
    'sso/saml/acs/:provider': {
      POST: acs,
      csrf: 'none',
    },
  };

  return {
    routes,
    parseMetadata: (xml) => parseIdpMetadata(xml),
    async start(ctx, record) {
      const callbackUrl = await resolveCallbackUrl(ctx, ctx.body.callbackUrl ?? null);
      const relayState = randomString(24);
      const { url } = await serviceProvider(ctx, record).authnRequestUrl({ relayState });
      const { name, options } = cookieOptions(ctx);
      const value = await seal(
        { p: record.id, r: relayState, c: callbackUrl } satisfies FlowCookie,
        ctx.auth.signingKey,
        PURPOSE,
        FLOW_MAX_AGE,
        ctx.auth.clock,
      );
      const cookies = [{ name, value, options: { ...options, maxAge: FLOW_MAX_AGE } }];
      if (ctx.wantsJson) return { status: 200, json: { url }, cookies };
      return { status: 303, redirect: url, cookies };
    },
  };
}
