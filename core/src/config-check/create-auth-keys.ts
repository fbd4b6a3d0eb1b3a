/**
 * The option keys `createAuth` accepts. The type checks keep the list and `CreateAuthOptions` in step: a key
 * added to the interface and not here fails the typecheck.
 * @module
 * @internal
 */
import type { CreateAuthOptions } from '../auth.js';

const KEYS = [
  'basePath',
  'session',
  'cookies',
  'pages',
  'secret',
  'plugins',
  'providers',
  'callbacks',
  'adapter',
  'secondaryStorage',
  'baseURL',
  'trustHost',
  'trustedOrigins',
  'env',
  'maxBodySize',
  'logger',
  'rbac',
  'rateLimit',
  'emailAndPassword',
  'events',
] as const satisfies readonly (keyof CreateAuthOptions)[];

type Missing = Exclude<keyof CreateAuthOptions, (typeof KEYS)[number]>;
const complete: [Missing] extends [never] ? true : { missing: Missing } = true;
void complete;

/** Every key of `CreateAuthOptions`. */
export const CREATE_AUTH_KEYS: ReadonlySet<string> = new Set(KEYS);
