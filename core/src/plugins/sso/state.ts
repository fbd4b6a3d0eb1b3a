/**
 * What the routes of `sso()` share once `createAuth` initialised it: the storage, the cipher of client secrets,
 * the OIDC flow and (when the SAML module is in the build) the SAML flow.
 * @module
 * @internal
 */
import type { ActionResult, PluginRoute, RouteContext, TokenCipher } from '../../plugin-kit.js';
import type { IssuerPolicy } from './issuer-policy.js';
import type { oidcFlow } from './oidc.js';
import type { SsoProviderRecord, SsoStorage, StoredSamlConfig } from './types.js';

/** The SAML side: SP-initiated start, metadata parsing for registration, and its own routes (metadata, ACS). */
export interface SamlSide {
  start(ctx: RouteContext, record: SsoProviderRecord): Promise<ActionResult>;
  parseMetadata(xml: string): StoredSamlConfig;
  routes: Record<string, PluginRoute>;
}

/** The plugin's shared state. */
export interface SsoPluginState {
  storage(): SsoStorage;
  cipher(): TokenCipher;
  /** Which issuers the server may fetch from, decided at `init` (the default from the base URL). */
  issuerPolicy(): IssuerPolicy;
  oidc: ReturnType<typeof oidcFlow>;
  saml: SamlSide | undefined;
}
