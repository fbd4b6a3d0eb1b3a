/**
 * Test helpers for examples that are built and then run as a real server
 * process (SvelteKit's adapter-node output, the React Router example's
 * server): run the build, start the server on a free port, wait until it
 * answers, and stop it. Used by examples/sveltekit and examples/remix.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A free loopback port (asked of the OS, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Output of a process, kept for error messages. */
function collect(child: ChildProcess): () => string {
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => output;
}

/**
 * Runs `command args` in `cwd` with `env` added to this process's, and
 * resolves when it exits with 0; rejects with its output otherwise.
 */
export function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = collect(child);
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output()}`)),
    );
  });
}

/** A server process listening on `baseUrl`. */
export interface ServerProcess {
  baseUrl: string;
  /** Stops the process (SIGTERM, then SIGKILL after 5 s) and waits for it to exit. */
  stop(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts `node args` in `cwd` with `PORT` (a free port), `HOST` (127.0.0.1)
 * and `ORIGIN` (`http://127.0.0.1:PORT`, which adapter-node needs to know
 * the app is not served over https) plus `env`, and resolves once `GET /`
 * gets any answer.
 * @throws when the process exits early or does not answer within `timeoutMs`.
 */
export async function startServer(
  args: string[],
  cwd: string,
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<ServerProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ORIGIN: baseUrl, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collect(child);
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exit.then(() => (exited = true));
  const stop = async () => {
    if (!exited) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exit;
      clearTimeout(timer);
    }
  };
  const deadline = Date.now() + timeoutMs;
  while (!(await answers(baseUrl))) {
    if (exited || Date.now() > deadline) {
      await stop();
      throw new Error(`server ${args.join(' ')} did not start:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { baseUrl, stop };
}

/** The admin the test servers seed (`ADMIN_EMAIL` / `ADMIN_PASSWORD`). */
export const TEST_ADMIN = { email: 'admin@example.com', password: 'admin-password-1' };
/** The webhook secret the test servers verify with (`WEBHOOK_SECRET`). */
export const TEST_WEBHOOK_SECRET = 'test-webhook-secret';

/** How to build and start one example. */
export interface BuiltExample {
  /** The example's folder: the working directory of both commands. */
  dir: string;
  /** A label for the output folder, `.test-build/<name>-<random>/`. */
  name: string;
  /** The environment variable that points the build at its output folder (`KIT_OUT`, `RR_OUT`). */
  outVar: string;
  /** Arguments of `node` that build the example (a CLI's script and its command). */
  build: string[];
  /** Arguments of `node` that start the built server, given the output folder. */
  server(out: string): string[];
}

/**
 * Builds an example into a fresh `.test-build/<name>-<random>/` folder of its
 * own (inside the example, so the server resolves the repository's
 * node_modules) and starts it on a free port over a temporary SQLite file,
 * with a generous login limit, a seeded {@link TEST_ADMIN}, the
 * {@link TEST_WEBHOOK_SECRET} and a silent mailer. `stop()` ends the server
 * and removes the build and the database.
 */
export async function startBuiltExample(example: BuiltExample): Promise<ServerProcess> {
  await mkdir(join(example.dir, '.test-build'), { recursive: true });
  const out = await mkdtemp(join(example.dir, '.test-build', `${example.name}-`));
  const data = await mkdtemp(join(tmpdir(), `example-${example.name}-`));
  const cleanup = () =>
    Promise.all([rm(out, { recursive: true, force: true }), rm(data, { recursive: true, force: true })]);
  try {
    await run(process.execPath, example.build, example.dir, { [example.outVar]: out });
    const server = await startServer(example.server(out), example.dir, {
      [example.outVar]: out,
      DB_PATH: join(data, 'app.db'),
      LOGIN_RATE_LIMIT: '1000',
      MAIL_LOG: 'off',
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    });
    return {
      baseUrl: server.baseUrl,
      stop: () =>
        server
          .stop()
          .then(cleanup)
          .then(() => {}),
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
