/**
 * The WebAssembly argon2 backend (hash-wasm), for runtimes without Node
 * addons. It writes the same PHC strings as `@node-rs/argon2`, and verifies
 * by recomputing the hash and comparing in constant time.
 * @internal
 * @module
 */
import { argon2d, argon2i, argon2id } from 'hash-wasm';
import { randomBytes, timingSafeEqualBytes } from '../crypto.js';
import { parseArgon2Phc } from './phc.js';
import { ARGON2_PARAMS, type Argon2Backend } from './types.js';

const VARIANTS = { argon2id, argon2i, argon2d } as const;
const HASH_BYTES = 32;
const SALT_BYTES = 16;

/** Raised when the runtime refuses to compile Wasm and no precompiled module was provided. */
function explain(error: unknown): unknown {
  if (error instanceof Error && /disallowed|not allowed|CompileError/i.test(`${error.name} ${error.message}`)) {
    return new Error(
      'argon2id: this runtime cannot compile WebAssembly at run time (workerd). Call provideArgon2Wasm() from @framework/auth/argon2-wasm with the precompiled hash-wasm modules first; see runtime-tests/README.md.',
      { cause: error },
    );
  }
  return error;
}

export const wasmArgon2: Argon2Backend = {
  name: 'wasm',
  async hash(password) {
    const options = {
      password,
      salt: randomBytes(SALT_BYTES),
      memorySize: ARGON2_PARAMS.memoryCost,
      iterations: ARGON2_PARAMS.timeCost,
      parallelism: ARGON2_PARAMS.parallelism,
      hashLength: HASH_BYTES,
      outputType: 'encoded' as const,
    };
    return argon2id(options).catch((error: unknown) => Promise.reject(explain(error)));
  },
  async verify(phc, password) {
    const parsed = parseArgon2Phc(phc);
    if (!parsed) return false;
    const { variant, salt, hash, ...cost } = parsed;
    let actual: Uint8Array;
    try {
      actual = await VARIANTS[variant]({ password, salt, ...cost, hashLength: hash.length, outputType: 'binary' });
    } catch (error) {
      const explained = explain(error);
      if (explained !== error) throw explained;
      return false;
    }
    return timingSafeEqualBytes(actual, hash);
  },
};
