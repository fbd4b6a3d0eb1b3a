/**
 * workerd refuses `WebAssembly.compile(bytes)`. This file reproduces that on
 * Node (hash-wasm's module cache is per test file, so nothing is compiled yet)
 * and checks that `provideArgon2Wasm` makes the wasm backend work. (hash-wasm
 * caches a failed compile, so the failure case has its own file.)
 */
import { afterAll, describe, expect, it } from 'vitest';
import { argon2WasmBinaries } from './binaries.js';
import { provideArgon2Wasm } from '../argon2-wasm.js';
import { wasmArgon2 } from './wasm.js';

const realCompile = WebAssembly.compile;
const binaries = await argon2WasmBinaries();
const modules = {
  argon2: { module: await realCompile(binaries.argon2.bytes), sha256: binaries.argon2.sha256 },
  blake2b: { module: await realCompile(binaries.blake2b.bytes), sha256: binaries.blake2b.sha256 },
};
WebAssembly.compile = async () => {
  throw new WebAssembly.CompileError('WebAssembly.compile(): Wasm code generation disallowed by embedder');
};
afterAll(() => {
  WebAssembly.compile = realCompile;
});

describe('provideArgon2Wasm', () => {
  it('with the precompiled modules, hashing and verifying work', async () => {
    provideArgon2Wasm(modules);
    const stored = await wasmArgon2.hash('pw');
    expect(await wasmArgon2.verify(stored, 'pw')).toBe(true);
  });

  it('rejects a module without its SHA-256', () => {
    expect(() =>
      provideArgon2Wasm({ ...modules, blake2b: { module: modules.blake2b.module, sha256: 'nope' } }),
    ).toThrow(TypeError);
  });
});
