/** Without `provideArgon2Wasm`, a runtime that forbids compiling Wasm gets an explanation, not a bare CompileError. */
import { afterAll, expect, it } from 'vitest';
import { wasmArgon2 } from './wasm.js';

const realCompile = WebAssembly.compile;
WebAssembly.compile = async () => {
  throw new WebAssembly.CompileError('WebAssembly.compile(): Wasm code generation disallowed by embedder');
};
afterAll(() => {
  WebAssembly.compile = realCompile;
});

it('explains that precompiled modules are needed, for hashing and verifying', async () => {
  await expect(wasmArgon2.hash('pw')).rejects.toThrow(/provideArgon2Wasm/);
  const stored = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g';
  await expect(wasmArgon2.verify(stored, 'pw')).rejects.toThrow(/provideArgon2Wasm/);
});
