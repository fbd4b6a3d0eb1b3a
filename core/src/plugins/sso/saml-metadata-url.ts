/**
 * Fetching an IdP's SAML metadata from the URL an organization owner registers (`metadataUrl`): once, at
 * registration, under the same server-side request forgery rules as OIDC issuers.
 * @module
 * @internal
 */
import { AuthError } from '../../plugin-kit.js';
import { ssoError } from './errors.js';
import { issuerFetch, type IssuerPolicy } from './issuer-policy.js';

/** The largest metadata document accepted, in bytes (as for `metadataXml`): 256 KiB. */
export const MAX_METADATA_BYTES = 256 * 1024;

/** How long the fetch may take, headers and body, in milliseconds: 10 s. */
export const METADATA_TIMEOUT_MS = 10_000;

const invalid = (message: string) => ssoError('SSO_PROVIDER_INVALID', message);

/** The body as UTF-8 text, read chunk by chunk and abandoned as soon as it passes `limit` bytes. */
async function readCapped(res: Response, limit: number): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await res.body?.cancel().catch(() => {});
    throw invalid('The metadata at `metadataUrl` is too large');
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw invalid('The metadata at `metadataUrl` is too large');
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder('utf-8').decode(bytes);
}

/**
 * Fetches the document at `url` for parsing as IdP metadata: through {@link issuerFetch} under `policy` (unless
 * private issuers are allowed: `https:` and public addresses only, checked before the request), with redirects not
 * followed, a timeout of {@link METADATA_TIMEOUT_MS} and at most {@link MAX_METADATA_BYTES} of body. The
 * `content-type` is not trusted: the caller parses whatever came. Errors never carry the body.
 * @param url The `metadataUrl` as registered (already checked to be an `https:` URL, or `http:` on loopback).
 * @param policy The plugin's issuer policy.
 * @param base The `fetch` to send through (the `sso()` option `fetch`); default the global `fetch`.
 * @returns The body as text.
 * @throws AuthError `SSO_ISSUER_NOT_ALLOWED` (400) for a URL the policy refuses, before any request;
 *   `SSO_PROVIDER_INVALID` (400) when the URL does not answer in time, answers other than 2xx (a redirect
 *   included), or with more than 256 KiB.
 * @example
 * ```ts
 * const xml = await fetchIdpMetadata('https://idp.example.com/metadata', { allowPrivate: false, lookup: dnsLookup });
 * const idp = parseIdpMetadata(xml);
 * ```
 */
export async function fetchIdpMetadata(url: string, policy: IssuerPolicy, base?: typeof fetch): Promise<string> {
  const guarded = issuerFetch(policy, base);
  const signal = AbortSignal.timeout(METADATA_TIMEOUT_MS);
  let res: Response;
  try {
    res = await guarded(url, {
      redirect: 'manual',
      signal,
      headers: { accept: 'application/samlmetadata+xml, application/xml;q=0.9, text/xml;q=0.8' },
    });
  } catch (error) {
    if (error instanceof AuthError) throw error;
    throw invalid('`metadataUrl` could not be fetched');
  }
  if (res.status < 200 || res.status > 299) {
    await res.body?.cancel().catch(() => {});
    throw invalid(`\`metadataUrl\` answered HTTP ${res.status}`);
  }
  try {
    return await readCapped(res, MAX_METADATA_BYTES);
  } catch (error) {
    if (error instanceof AuthError) throw error;
    throw invalid('`metadataUrl` could not be fetched');
  }
}
