/**
 * Checking the service provider's own key pairs (`SamlSpKeys`) once, at configuration time.
 * @module
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import type { SamlKeyPair, SamlSpKeys } from './types.js';

/** Why a key pair is refused, or null when it is usable: RSA private key, parseable certificate of that key. */
function pairProblem(pair: SamlKeyPair | undefined): string | null {
  if (!pair || typeof pair !== 'object') return 'must be an object {privateKey, certificate}';
  if (typeof pair.privateKey !== 'string' || typeof pair.certificate !== 'string')
    return 'needs `privateKey` and `certificate` as PEM strings';
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(pair.certificate);
  } catch {
    return '`certificate` is not a PEM X.509 certificate';
  }
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(pair.privateKey);
  } catch {
    return '`privateKey` is not a PEM private key';
  }
  // RSA only: the HTTP-Redirect SigAlg sent is rsa-sha*, and XML Encryption key transport is RSA-OAEP.
  if (key.asymmetricKeyType !== 'rsa') return '`privateKey` must be an RSA key';
  if (!certificate.checkPrivateKey(key)) return '`certificate` is not the certificate of `privateKey`';
  return null;
}

/**
 * Checks the SP's keys: each pair given must be an RSA private key with the certificate of its public key, and
 * `signatureAlgorithm` `sha256` or `sha512`.
 * @param keys The keys, or `undefined` for none.
 * @returns A description of the first problem (naming the pair), or `null` when they are usable.
 * @example
 * ```ts
 * const problem = checkSamlSpKeys({ signing: { privateKey, certificate } });
 * if (problem) throw new Error(`samlKeys: ${problem}`);
 * ```
 */
export function checkSamlSpKeys(keys: SamlSpKeys | undefined): string | null {
  if (keys === undefined) return null;
  if (!keys || typeof keys !== 'object') return 'must be an object {signing?, encryption?}';
  for (const name of ['signing', 'encryption'] as const) {
    if (keys[name] === undefined) continue;
    const problem = pairProblem(keys[name]);
    if (problem) return `${name} ${problem}`;
  }
  const algorithm = keys.signing?.signatureAlgorithm;
  if (algorithm !== undefined && algorithm !== 'sha256' && algorithm !== 'sha512')
    return 'signing `signatureAlgorithm` must be sha256 or sha512';
  const required = keys.encryption?.requireEncryptedAssertions;
  if (required !== undefined && typeof required !== 'boolean')
    return 'encryption `requireEncryptedAssertions` must be a boolean';
  return null;
}
