/**
 * The Worker entry. argon2 runs as WebAssembly here, so its modules are
 * handed to the kit first; the app is built once per isolate.
 * @module
 */
import type { ExecutionContext } from 'hono';
import argon2Wasm from 'virtual:argon2-wasm';
import { provideArgon2Wasm } from '@framework/auth/argon2-wasm';
import { createApp, type WorkerApp } from './app.js';
import type { WorkerEnv } from './env.js';

provideArgon2Wasm(argon2Wasm);

let built: WorkerApp | undefined;

export default {
  async fetch(request: Request, env: WorkerEnv, ctx: ExecutionContext): Promise<Response> {
    built ??= createApp(env);
    await built.ready;
    return built.app.fetch(request, env, ctx);
  },
};
