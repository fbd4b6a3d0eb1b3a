import { TriggerDefinitionError } from '../errors.js';
import { decode, type HmacAlgorithm } from './crypto.js';
import { header, invalid, requireSecret, signatureMatches, VALID, verifier } from './shared.js';
import type { WebhookVerifier } from './types.js';

/** Options of {@link customHmacVerifier}. */
export interface CustomHmacVerifierOptions {
  /** The shared secret. */
  secret: string;
  /** `sha256`, `sha1` or `sha512`. */
  algorithm: HmacAlgorithm;
  /** Header holding the signature, e.g. `x-signature`. */
  header: string;
  /** Text before the signature, e.g. `sha256=`; required when set. */
  prefix?: string;
  /** Signature encoding. Default `hex`. */
  encoding?: 'hex' | 'base64';
  /** What is signed. Default: the raw body. Receives a copy of the request whose body can be read. */
  getPayload?: (request: Request) => Promise<string>;
}

/**
 * Verifies any "HMAC of the body in a header" scheme.
 *
 * Replay: a body-only HMAC proves who sent a request, not when, nor that it is new, so a captured request verifies
 * again at any time. For senders you control, prefer `standardWebhooksVerifier` (signed timestamp and
 * de-duplicated signed id); otherwise keep the handler idempotent, or put a timestamp in `getPayload` and check it.
 *
 * @throws {TriggerDefinitionError} at creation for an empty secret or header, or an unknown algorithm or encoding
 * @example
 * ```ts
 * verifier: customHmacVerifier({ secret: env.WEBHOOK_SECRET, algorithm: 'sha256', header: 'x-signature', prefix: 'sha256=' })
 * ```
 */
export function customHmacVerifier(options: CustomHmacVerifierOptions): WebhookVerifier {
  const secret = requireSecret('customHmacVerifier', 'secret', options?.secret);
  const { algorithm, prefix = '', encoding = 'hex', getPayload } = options;
  if (!['sha1', 'sha256', 'sha512'].includes(algorithm)) {
    throw new TriggerDefinitionError(
      'customHmacVerifier({algorithm})',
      `expected 'sha256', 'sha1' or 'sha512', got ${String(algorithm)}`,
    );
  }
  if (encoding !== 'hex' && encoding !== 'base64') {
    throw new TriggerDefinitionError(
      'customHmacVerifier({encoding})',
      `expected 'hex' or 'base64', got ${String(encoding)}`,
    );
  }
  if (typeof options.header !== 'string' || options.header === '') {
    throw new TriggerDefinitionError('customHmacVerifier({header})', 'expected a header name');
  }
  const name = options.header;
  return verifier('customHmacVerifier', async (request, rawBody) => {
    const value = header(request, name);
    if (value === undefined) return invalid(`missing ${name} header`);
    if (!value.startsWith(prefix)) return invalid(`${name} must start with ${prefix}`);
    const payload = getPayload ? await getPayload(request.clone()) : rawBody;
    const ok = await signatureMatches(algorithm, secret, [payload], [decode(value.slice(prefix.length), encoding)]);
    return ok ? VALID : invalid('signature mismatch');
  });
}
