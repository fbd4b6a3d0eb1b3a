/**
 * The argon2 choice on a runtime where the native addon does not load: the WebAssembly backend is used only after
 * the app asked for it (`provideArgon2Wasm` from `@framework/auth/argon2-wasm`); before that, hashing fails and
 * names the fix instead of silently loading hash-wasm.
 */
import { describe, expect, it, vi } from 'vitest';

vi.mock('./native.js', () => ({ loadNativeArgon2: async () => null }));

describe('argon2 without the native addon', () => {
  it('refuses until the Wasm hasher is provided, then hashes and verifies with it', async () => {
    const { hashPassword, passwordHasherName, verifyPassword } = await import('../password.js');
    await expect(hashPassword('correct horse')).rejects.toThrow(/@framework\/auth\/argon2-wasm/);
    await expect(passwordHasherName()).rejects.toThrow(/provideArgon2Wasm/);

    const { provideArgon2Wasm } = await import('../argon2-wasm.js');
    provideArgon2Wasm();
    expect(await passwordHasherName()).toBe('wasm');
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('wrong horse', stored)).toBe(false);
  });
});
