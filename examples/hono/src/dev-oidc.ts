/**
 * A local OpenID provider for development (oauth2-mock-server): the example
 * app's "Dev OIDC" button signs in through a real authorization code flow
 * without any network. Every sign-in is the demo person below, in the ID
 * token and from the UserInfo endpoint alike.
 */
import { OAuth2Server } from 'oauth2-mock-server';

export const DEV_OIDC_PERSON = {
  sub: 'dev-oidc-person',
  email: 'oidc.person@dev-oidc.test',
  name: 'Dev OIDC Person',
  email_verified: true,
};

export interface DevOidc {
  issuer: string;
  stop(): Promise<void>;
}

/** Starts the provider on 127.0.0.1 (`port` 0 picks a free one). */
export async function startDevOidc(port = 0): Promise<DevOidc> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  // The access token (it carries `amr`) and the ID token are both for the demo person.
  server.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    if ('amr' in token.payload) token.payload.sub = DEV_OIDC_PERSON.sub;
    else Object.assign(token.payload, DEV_OIDC_PERSON);
  });
  // The kit calls UserInfo after the ID token (OIDC Core §5.3) and requires the same `sub` there.
  server.service.on('beforeUserinfo', (res: { body: unknown }) => {
    res.body = { ...DEV_OIDC_PERSON };
  });
  await server.start(port, '127.0.0.1');
  return { issuer: server.issuer.url!, stop: () => server.stop() };
}
