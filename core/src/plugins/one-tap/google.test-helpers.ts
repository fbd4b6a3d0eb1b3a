/**
 * A local stand-in for Google's signing side in the `oneTap()` tests: an RS256 key pair whose public JWK is served
 * on 127.0.0.1 (port 0), and ID tokens signed with it. Never touches the network.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWTPayload } from 'jose';

/** The OAuth client id the tests configure `oneTap()` with and put in `aud`. */
export const CLIENT_ID = 'client-123.apps.googleusercontent.com';
/** The email address in the tokens `token()` signs unless a claim overrides it. */
export const GOOGLE_EMAIL = 'grace@example.com';

/**
 * Generates the key pair (kid `k1`) and serves `{ keys: [publicJwk] }` at `jwksUrl`. `token(claims)` signs an ID
 * token issued by https://accounts.google.com for {@link CLIENT_ID}, subject `google-sub-1`, valid for an hour,
 * with a verified {@link GOOGLE_EMAIL} and the name Grace; `claims` override any of these, `signWith` signs with
 * another key. Call `close()` in `afterAll`.
 */
export async function localGoogle() {
  const signing = await generateKeyPair('RS256', { extractable: true });
  const publicJwk: Record<string, unknown> = {
    ...(await exportJWK(signing.publicKey)),
    kid: 'k1',
    alg: 'RS256',
    use: 'sig',
  };
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [publicJwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/certs`;
  const token = async (claims: JWTPayload = {}, opts: { signWith?: CryptoKey } = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      iss: 'https://accounts.google.com',
      aud: CLIENT_ID,
      sub: 'google-sub-1',
      iat: now,
      exp: now + 3600,
      email: GOOGLE_EMAIL,
      email_verified: true,
      name: 'Grace',
      ...claims,
    })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .sign(opts.signWith ?? signing.privateKey);
  };
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { jwksUrl, publicJwk, token, close };
}
