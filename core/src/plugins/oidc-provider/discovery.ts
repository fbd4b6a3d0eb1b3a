/**
 * `GET /.well-known/openid-configuration` under `basePath` (OpenID Connect Discovery 1.0 §4, RFC 8414): what this
 * provider implements, and nothing more.
 * @module
 * @internal
 */
import type { ResolvedOidcProviderOptions } from './options.js';

/** The provider metadata for `issuer` (the auth's base URL + basePath). */
export function discoveryDocument(
  issuer: string,
  o: ResolvedOidcProviderOptions,
  alg: string,
): Record<string, unknown> {
  const at = (path: string) => `${issuer}${path}`;
  return {
    issuer,
    authorization_endpoint: at('/oauth2/authorize'),
    token_endpoint: at('/oauth2/token'),
    userinfo_endpoint: at('/oauth2/userinfo'),
    jwks_uri: at('/jwks'),
    revocation_endpoint: at('/oauth2/revoke'),
    introspection_endpoint: at('/oauth2/introspect'),
    end_session_endpoint: at('/oauth2/end-session'),
    ...(o.dynamicRegistration ? { registration_endpoint: at('/oauth2/register') } : {}),
    scopes_supported: [...o.scopes],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [alg],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    code_challenge_methods_supported: ['S256'],
    claims_supported: [
      'sub',
      'iss',
      'aud',
      'exp',
      'iat',
      'auth_time',
      'nonce',
      'acr',
      'amr',
      'at_hash',
      'name',
      'picture',
      'email',
      'email_verified',
    ],
    prompt_values_supported: ['none', 'login', 'consent'],
    authorization_response_iss_parameter_supported: true,
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
  };
}
