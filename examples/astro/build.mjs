// `npm run build`: `astro build`, then removes the `.astro/` folder Astro writes into the project on every build
// (generated types; the server build does not need them). Left there, the repository's lint and format checks would
// read them, and start.mjs's build-if-stale check would count them as a changed input and rebuild every time.
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

const dir = import.meta.dirname;
const astro = join(dir, '..', '..', 'node_modules', 'astro', 'astro.js');
const code = await new Promise((resolve, reject) => {
  const child = spawn(process.execPath, [astro, 'build'], { cwd: dir, stdio: 'inherit' });
  child.once('error', reject);
  child.once('exit', resolve);
});
await rm(join(dir, '.astro'), { recursive: true, force: true });
if (code !== 0) throw new Error(`astro build exited with ${code}`);
