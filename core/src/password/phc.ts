/**
 * Parsing of argon2 PHC strings (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`,
 * base64 without padding), as both backends write them.
 * @internal
 * @module
 */

/** The fields of an argon2 PHC string. */
export interface Argon2Phc {
  variant: 'argon2id' | 'argon2i' | 'argon2d';
  memorySize: number;
  iterations: number;
  parallelism: number;
  salt: Uint8Array;
  hash: Uint8Array;
}

const PHC =
  /^\$(argon2id|argon2i|argon2d)\$v=19\$m=(\d{1,10}),t=(\d{1,10}),p=(\d{1,3})\$([A-Za-z0-9+/]{11,})\$([A-Za-z0-9+/]{6,})$/;

function decodeBase64(text: string): Uint8Array {
  const binary = atob(text + '='.repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The parsed string, or null when it is not a version-19 argon2 PHC string. */
export function parseArgon2Phc(phc: string): Argon2Phc | null {
  const match = PHC.exec(phc);
  if (!match) return null;
  const [, variant, m, t, p, salt, hash] = match as unknown as [
    string,
    Argon2Phc['variant'],
    string,
    string,
    string,
    string,
    string,
  ];
  try {
    return {
      variant,
      memorySize: Number(m),
      iterations: Number(t),
      parallelism: Number(p),
      salt: decodeBase64(salt),
      hash: decodeBase64(hash),
    };
  } catch {
    return null;
  }
}
