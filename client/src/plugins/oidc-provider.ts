/**
 * `@framework/auth-client/plugins/oidc-provider`: the browser side of the server's `oidcProvider()` plugin
 * (`@framework/auth/plugins/oidc-provider`): the signed-in user's "Apps with access", and withdrawing one. Each
 * function resolves to an {@link AccountResult} and never rejects.
 *
 * Errors: `UNAUTHENTICATED` (401, signed out), `OIDC_CONSENT_NOT_FOUND` (404, nothing to revoke).
 * @module
 */
import { authRequest, type AccountResult, type AuthClientOptions } from '@framework/auth-client';

/** An application the user allowed (`createdAt` as an ISO string). */
export interface AppWithAccess {
  clientId: string;
  name: string;
  scopes: string[];
  createdAt: string;
}

/**
 * The applications the signed-in user allowed, oldest first: `GET {basePath}/oauth2/consents`.
 * @example
 * ```ts
 * const { data } = await listAppsWithAccess();
 * for (const app of data?.apps ?? []) console.log(app.name, app.scopes.join(' '));
 * ```
 */
export const listAppsWithAccess = (options?: AuthClientOptions): Promise<AccountResult<{ apps: AppWithAccess[] }>> =>
  authRequest<{ apps: AppWithAccess[] }>('/oauth2/consents', options);

/**
 * Withdraws the user's consent to `clientId`: `POST {basePath}/oauth2/consents/revoke` with the kit's CSRF token.
 * The application's access and refresh tokens for this user stop working at once; its next authorization asks again.
 * @example
 * ```ts
 * const { ok } = await revokeAppAccess({ clientId: 'partner' });
 * ```
 */
export const revokeAppAccess = (
  input: { clientId: string },
  options?: AuthClientOptions,
): Promise<AccountResult<{ ok: true }>> =>
  authRequest<{ ok: true }>('/oauth2/consents/revoke', options, { clientId: input.clientId });
