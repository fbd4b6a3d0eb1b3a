/**
 * The Worker that runs the shared suite in workerd: POST a RunRequest as
 * JSON, get the RuntimeReport back.
 * @module
 */
import argon2Wasm from 'virtual:argon2-wasm';
import { provideArgon2Wasm } from '../../../core/src/argon2-wasm.js';
import type { D1DatabaseLike } from '../../../core/src/storage/d1/binding.js';
import { runSuite, type RunRequest } from '../run.js';

provideArgon2Wasm(argon2Wasm);

export default {
  async fetch(request: Request, env: { DB?: D1DatabaseLike }): Promise<Response> {
    const run = (await request.json()) as RunRequest;
    return Response.json(await runSuite(run, env.DB));
  },
};
