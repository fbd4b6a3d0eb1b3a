/**
 * What the `sso()` OIDC tests share: registering the Acme provider against the local strict OpenID provider.
 */
import { STRICT_CLIENTS } from '../../providers/oauth/strict-provider.js';
import type { TestClient } from '../../testing/fixtures.js';

/**
 * `POST /auth/sso/providers/register` as `c`: provider `acme` ("Acme IdP") for `organizationId` at `issuer` with
 * the strict provider's plain client, domain `acme.test`, the `groups` value `acme-admins` mapped to the admin
 * role; `body` overrides any field.
 */
export const registerAcme = (
  c: TestClient,
  organizationId: string,
  issuer: string,
  body: Record<string, string> = {},
): Promise<Response> =>
  c.postJson('/auth/sso/providers/register', {
    organizationId,
    providerId: 'acme',
    name: 'Acme IdP',
    issuer,
    ...STRICT_CLIENTS.plain,
    domain: 'acme.test',
    roleAttribute: 'groups',
    roleValues: 'acme-admins=admin',
    ...body,
  });
