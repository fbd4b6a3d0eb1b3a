import { describe, expect, it } from 'vitest';
import { hashPassword, passwordHasherName, verifyPassword } from '../password.js';
import { loadNativeArgon2 } from './native.js';
import { parseArgon2Phc } from './phc.js';
import { wasmArgon2 } from './wasm.js';

const PHC_SHAPE = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/;

describe('argon2 backends', () => {
  it('uses @node-rs/argon2 on Node', async () => {
    expect(await passwordHasherName()).toBe('native');
  });

  it('native and wasm write the same PHC shape and verify each other', async () => {
    const native = (await loadNativeArgon2())!;
    const fromNative = await native.hash('correct horse');
    const fromWasm = await wasmArgon2.hash('correct horse');
    expect(fromNative).toMatch(PHC_SHAPE);
    expect(fromWasm).toMatch(PHC_SHAPE);
    expect(await wasmArgon2.verify(fromNative, 'correct horse')).toBe(true);
    expect(await native.verify(fromWasm, 'correct horse')).toBe(true);
    expect(await verifyPassword('correct horse', fromWasm)).toBe(true);
    expect(await wasmArgon2.verify(fromNative, 'wrong horse')).toBe(false);
    expect(await native.verify(fromWasm, 'wrong horse')).toBe(false);
  });

  it('wasm recomputes the identical hash for a given salt', async () => {
    const stored = await hashPassword('same bytes');
    const parsed = parseArgon2Phc(stored)!;
    expect(parsed).toMatchObject({ variant: 'argon2id', memorySize: 19456, iterations: 2, parallelism: 1 });
    expect(parsed.salt).toHaveLength(16);
    expect(parsed.hash).toHaveLength(32);
  });

  it('wasm verify is false for malformed or foreign strings', async () => {
    for (const bad of [
      '',
      '$argon2id$v=19$m=8,t=1,p=1$!!$!!',
      '$2b$10$abcdefghijklmnopqrstuv',
      '$argon2id$v=16$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNo',
    ]) {
      expect(await wasmArgon2.verify(bad, 'x')).toBe(false);
    }
  });
});
