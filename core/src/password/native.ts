/**
 * The native argon2 backend: `@node-rs/argon2` (a Rust addon), loaded at run
 * time. The specifier is built at run time so that bundlers targeting
 * workerd or browsers never follow it into native code; on Node the import
 * resolves like any dependency.
 * @internal
 * @module
 */
import { ARGON2_PARAMS, type Argon2Backend } from './types.js';

/** `Algorithm.Argon2id` of @node-rs/argon2 (a const enum, so not importable under isolatedModules). */
const ARGON2ID = 2;

interface NodeRsArgon2 {
  hash(password: string, options: Record<string, number>): Promise<string>;
  verify(hashed: string, password: string): Promise<boolean>;
}

/** Whether this runtime may load Node addons: Node (or Bun/Deno's Node mode), but not workerd's nodejs_compat. */
function canLoadAddons(): boolean {
  const proc = (globalThis as { process?: { versions?: Record<string, string | undefined> } }).process;
  const agent = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent;
  return typeof proc?.versions?.node === 'string' && agent !== 'Cloudflare-Workers';
}

/** The native backend, or null when the addon cannot be loaded here. */
export async function loadNativeArgon2(): Promise<Argon2Backend | null> {
  if (!canLoadAddons()) return null;
  const specifier = ['@node-rs', 'argon2'].join('/');
  let mod: NodeRsArgon2;
  try {
    mod = (await import(/* webpackIgnore: true */ /* @vite-ignore */ specifier)) as NodeRsArgon2;
  } catch {
    return null;
  }
  return {
    name: 'native',
    hash: (password) => mod.hash(password, { algorithm: ARGON2ID, ...ARGON2_PARAMS }),
    verify: (phc, password) => mod.verify(phc, password),
  };
}
