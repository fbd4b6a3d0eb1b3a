/**
 * Requests/s of a protected route (jwt session) against a bare Hono route,
 * with autocannon on loopback and each server in its own process.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const here = fileURLToPath(new URL('.', import.meta.url));

type Kind = 'bare' | 'scoped' | 'context';

async function startServer(kind: Kind) {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=source', `${here}server.ts`, kind], {
    stdio: ['ignore', 'pipe', 'inherit'],
    cwd: here,
  });
  const line = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(buf.slice(0, nl));
    });
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const [, port, cookie] = line.split(' ');
  return { child, url: `http://127.0.0.1:${port}/`, cookie: cookie ?? '' };
}

async function rps(kind: Kind, seconds: number): Promise<number> {
  const server = await startServer(kind);
  try {
    const headers = server.cookie ? { cookie: server.cookie } : undefined;
    await autocannon({ url: server.url, connections: 20, duration: 1, ...(headers ? { headers } : {}) });
    const result = await autocannon({ url: server.url, connections: 20, duration: seconds, ...(headers ? { headers } : {}) });
    if (result.non2xx > 0) throw new Error(`bench: ${kind} route answered ${result.non2xx} non-2xx responses`);
    return result.requests.average;
  } finally {
    server.child.kill('SIGTERM');
  }
}

export async function protectedVsBare(seconds = 5): Promise<{ bare: number; scoped: number; context: number }> {
  const bare = await rps('bare', seconds);
  const scoped = await rps('scoped', seconds);
  const context = await rps('context', seconds);
  return { bare, scoped, context };
}
