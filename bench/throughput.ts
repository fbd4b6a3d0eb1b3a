/**
 * Requests/s of a protected route (jwt session; the default authSession and
 * the opt-in AsyncLocalStorage scope) against a bare Hono route,
 * with autocannon on loopback and each server in its own process.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const here = fileURLToPath(new URL('.', import.meta.url));

type Kind = 'bare' | 'noop' | 'default' | 'scoped';

async function startServer(kind: Kind) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=@framework/source', `${here}server.ts`, kind],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      cwd: here,
    },
  );
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

/**
 * The session cookie the protected servers print; sent to the bare route too, so every route parses the same
 * request.
 */
let sessionCookie = '';

async function rps(kind: Kind, seconds: number): Promise<number> {
  const server = await startServer(kind);
  if (server.cookie) sessionCookie = server.cookie;
  try {
    const cookie = server.cookie || sessionCookie;
    const headers = cookie ? { cookie } : undefined;
    await autocannon({ url: server.url, connections: 20, duration: 1, ...(headers ? { headers } : {}) });
    const result = await autocannon({
      url: server.url,
      connections: 20,
      duration: seconds,
      ...(headers ? { headers } : {}),
    });
    if (result.non2xx > 0) throw new Error(`bench: ${kind} route answered ${result.non2xx} non-2xx responses`);
    return result.requests.average;
  } finally {
    server.child.kill('SIGTERM');
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Median requests/s of each route over `rounds` interleaved rounds
 * (default, scoped, noop, bare, default, …), so drift on a shared 2-core machine
 * hits every kind alike. All of them receive the same session cookie. `noop` is a route behind a middleware that
 * does nothing: the most any middleware can keep.
 */
export async function protectedVsBare(seconds = 3, rounds = 5): Promise<Record<Kind, number>> {
  const runs: Record<Kind, number[]> = { bare: [], noop: [], default: [], scoped: [] };
  for (let i = 0; i < rounds; i++) {
    for (const kind of ['default', 'scoped', 'noop', 'bare'] as const) runs[kind].push(await rps(kind, seconds));
  }
  return {
    bare: median(runs.bare),
    noop: median(runs.noop),
    default: median(runs.default),
    scoped: median(runs.scoped),
  };
}
