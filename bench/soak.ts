/**
 * `npm run soak [-- <seconds>]` (default 60): not a CI test. Two app
 * processes (soak-server.ts) share one fresh PostgreSQL schema and a Redis
 * channel; 1000 users get a database session each; autocannon loads `/me` on
 * both at once with the 1000 cookies in turn. Half way through, 100 users sign
 * out on instance A (CSRF + POST /auth/signout); right after, each of their
 * cookies is tried once on instance B. Prints req/s, p50/p99 latency, errors,
 * RSS at start and end of each process, and how many signed-out users B still
 * served (goal 0).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { createPostgresAdapter } from '@framework/auth';

const seconds = Number(process.argv[2] ?? 60);
const USERS = 1000;
const SIGN_OUT = 100;
const COOKIE = 'framework.session-token';
const here = fileURLToPath(new URL('.', import.meta.url));
const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `soak_${randomBytes(4).toString('hex')}`;
const channel = `soak:${schema}`;

const admin = new pg.Pool({ connectionString: url, max: 1 });
await admin.query(`create schema ${schema}`);
const pool = new pg.Pool({ connectionString: url, max: 4, options: `-c search_path=${schema}` });
const adapter = createPostgresAdapter({ pool });
await adapter.migrate();

// Sessions are written as a sign-in writes them: id, SHA-256 of the secret, 30 days.
const cookies: string[] = [];
for (let i = 0; i < USERS; i++) {
  const user = await adapter.createUser({ email: `soak${i}@example.com`, name: `Soak ${i}`, emailVerified: null });
  const id = randomBytes(12).toString('base64url');
  const secret = randomBytes(32).toString('base64url');
  const now = Date.now();
  await adapter.createSession({
    id,
    tokenHash: createHash('sha256').update(secret).digest('hex'),
    userId: user.id,
    expires: new Date(now + 30 * 864e5),
    createdAt: new Date(now),
    lastActiveAt: new Date(now),
  });
  cookies.push(`${COOKIE}=${id}.${secret}`);
}

async function start(): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=@framework/source', `${here}soak-server.ts`, schema, channel],
    { stdio: ['ignore', 'pipe', 'inherit'], cwd: here },
  );
  const port = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /PORT (\d+)/.exec(buf);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`soak server exited with ${code}`)));
  });
  return { child, base: `http://127.0.0.1:${port}` };
}
const rss = async (base: string) => Number(await (await fetch(`${base}/__rss`)).text()) / 2 ** 20;

async function signOut(base: string, cookie: string): Promise<void> {
  const csrf = await fetch(`${base}/auth/csrf`);
  const csrfCookie = csrf.headers.getSetCookie()[0]!.split(';')[0]!;
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${base}/auth/signout`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      cookie: `${csrfCookie}; ${cookie}`,
      origin: base,
    },
    body: JSON.stringify({ csrfToken }),
  });
  if (res.status >= 400) throw new Error(`sign-out answered ${res.status}`);
}

/** autocannon's `setupRequest` that sends the 1000 cookies in turn. */
function cycleCookies(): { setupRequest: (req: autocannon.Request) => autocannon.Request } {
  let next = 0;
  return { setupRequest: (req) => ({ ...req, headers: { ...req.headers, cookie: cookies[next++ % USERS]! } }) };
}

function load(base: string) {
  return autocannon({
    url: `${base}/me`,
    connections: 50,
    duration: seconds,
    requests: [cycleCookies()],
  });
}

const a = await start();
const b = await start();
try {
  // Warm up both under the soak's own load (50 connections, 10 s, every session read many times), so the heap
  // and the JIT reach their working size first; then take the starting RSS. Growth after that is what leaks.
  await Promise.all(
    [a.base, b.base].map((base) =>
      autocannon({ url: `${base}/me`, connections: 50, duration: 10, requests: [cycleCookies()] }),
    ),
  );
  const rssStart = [await rss(a.base), await rss(b.base)];
  // RSS every tenth of the run, to tell a plateau from a climb.
  const samples: number[][] = [[], []];
  const sampler = setInterval(
    () => {
      void Promise.all([rss(a.base), rss(b.base)]).then(([x, y]) => (samples[0]!.push(x), samples[1]!.push(y)));
    },
    (seconds * 1000) / 10,
  );
  const runs = [load(a.base), load(b.base)];
  await new Promise((r) => setTimeout(r, (seconds * 1000) / 2));
  const gone = cookies.slice(0, SIGN_OUT);
  for (const cookie of gone) await signOut(a.base, cookie);
  let stillIn = 0;
  for (const cookie of gone) if ((await fetch(`${b.base}/me`, { headers: { cookie } })).status === 200) stillIn++;
  const [ra, rb] = (await Promise.all(runs)) as [autocannon.Result, autocannon.Result];
  clearInterval(sampler);
  const rssEnd = [await rss(a.base), await rss(b.base)];
  const row = (name: string, r: autocannon.Result, i: number) =>
    `| ${name} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${r.errors + r.timeouts} | ${r.non2xx} | ${rssStart[i]!.toFixed(1)} | ${rssEnd[i]!.toFixed(1)} | ${(((rssEnd[i]! - rssStart[i]!) / rssStart[i]!) * 100).toFixed(1)} % |`;
  console.log(
    `== soak: ${USERS} users, 2 instances (PostgreSQL + Redis secondary storage), ${seconds} s, 50 connections each, Node ${process.versions.node}`,
  );
  console.log(
    '| instance | req/s | p50 ms | p99 ms | errors | non-2xx | RSS start MB | RSS end MB | RSS growth |\n|---|---|---|---|---|---|---|---|---|',
  );
  console.log(row('A', ra, 0));
  console.log(row('B', rb, 1));
  console.log(`non-2xx are the ${SIGN_OUT} signed-out users' later requests (401), expected.`);
  for (const [i, name] of ['A', 'B'].entries())
    console.log(`RSS of ${name} during the run (MB): ${samples[i]!.map((x) => x.toFixed(0)).join(' → ')}`);
  console.log(
    `revocation: signed out ${SIGN_OUT} users on A; still signed in on B at their next request: ${stillIn} (goal 0)`,
  );
} finally {
  for (const { child } of [a, b]) child.kill('SIGTERM');
  await pool.end();
  await admin.query(`drop schema ${schema} cascade`);
  await admin.end();
}
