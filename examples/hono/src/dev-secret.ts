/**
 * The example's auth secret: `AUTH_SECRET` when set; outside production, a
 * random one generated on first start and kept in `<dataDir>/auth-secret`
 * (the git-ignored `.data/` folder), so sessions, two-factor keys and token
 * signing keys survive a restart. Production never generates one.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file, inside the data folder, that holds the generated secret. */
export const SECRET_FILE = 'auth-secret';

const MIN_LENGTH = 32;

/**
 * Returns the secret for the example's auth.
 * @param env the environment (`AUTH_SECRET`, `NODE_ENV`).
 * @param dataDir where a generated secret is kept (created when missing), e.g. `.data`.
 * @throws Error when `AUTH_SECRET` is shorter than 32 characters, when it is missing with
 *   `NODE_ENV=production`, or when the kept file holds a secret shorter than 32 characters.
 * @example
 * ```ts
 * const secret = exampleSecret(process.env, '.data'); // .data/auth-secret on first start
 * ```
 */
export function exampleSecret(env: NodeJS.ProcessEnv, dataDir: string): string {
  const given = env.AUTH_SECRET;
  if (given !== undefined && given !== '') {
    if (given.length < MIN_LENGTH) throw new Error(`AUTH_SECRET must be at least ${MIN_LENGTH} characters`);
    return given;
  }
  if (env.NODE_ENV === 'production')
    throw new Error('AUTH_SECRET is required with NODE_ENV=production (e.g. `openssl rand -base64 32`)');
  const file = join(dataDir, SECRET_FILE);
  mkdirSync(dataDir, { recursive: true });
  try {
    // 'wx': never overwrite a secret another start wrote first.
    writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
  }
  const kept = readFileSync(file, 'utf8').trim();
  if (kept.length < MIN_LENGTH)
    throw new Error(`${file} holds a secret shorter than ${MIN_LENGTH} characters; delete it to generate a new one`);
  return kept;
}
