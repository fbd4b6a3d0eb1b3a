// `npm start`: `next build` when the build is missing or older than the sources (build.mjs), then server.mjs.
// The server runs as production, where the kit needs AUTH_SECRET and the signed webhook WEBHOOK_SECRET: each one
// missing is generated once and kept in .data/ (mode 0600), so sessions survive a restart.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildNextExample } from './build.mjs';

const dir = import.meta.dirname;
for (const name of ['AUTH_SECRET', 'WEBHOOK_SECRET']) {
  if (process.env[name]) continue;
  const file = join(dir, '.data', name.toLowerCase());
  let secret = await readFile(file, 'utf8').catch(() => '');
  if (secret.length < 32) {
    secret = randomBytes(32).toString('hex');
    await mkdir(join(dir, '.data'), { recursive: true });
    await writeFile(file, secret, { mode: 0o600 });
  }
  process.env[name] = secret;
}
await buildNextExample();
await import(pathToFileURL(join(dir, 'server.mjs')).href);
