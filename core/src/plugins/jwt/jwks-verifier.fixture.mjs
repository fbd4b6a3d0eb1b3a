// A resource server in its own process: verifies access tokens with plain jose
// (createRemoteJWKSet + jwtVerify), not with verifyAccessToken.
// argv: <jwksUrl> <issuer> <audience>. Reads one token per stdin line and
// writes one JSON line per token: { ok: true, sub, kid } or { ok: false, code }.
import { createInterface } from 'node:readline';
import { createRemoteJWKSet, jwtVerify } from 'jose';

const [jwksUrl, issuer, audience] = process.argv.slice(2);
// cooldownDuration 0: refetch at once on an unknown kid (the app under test rotates with activationDelay 0).
const keys = createRemoteJWKSet(new URL(jwksUrl), { cooldownDuration: 0 });

for await (const line of createInterface({ input: process.stdin })) {
  const token = line.trim();
  if (!token) continue;
  try {
    const { payload, protectedHeader } = await jwtVerify(token, keys, { issuer, audience, typ: 'at+jwt' });
    process.stdout.write(`${JSON.stringify({ ok: true, sub: payload.sub, kid: protectedHeader.kid })}\n`);
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ ok: false, code: error?.code ?? 'ERROR' })}\n`);
  }
}
