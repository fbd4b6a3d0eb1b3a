/**
 * Test helpers for examples that are built and then run as a real server
 * process (SvelteKit's adapter-node output, the React Router example's
 * server): run the build, start the server on a free port, wait until it
 * answers, and stop it. Shared with examples/remix.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';

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
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output()}`))));
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
export async function startServer(args: string[], cwd: string, env: Record<string, string>, timeoutMs = 30_000): Promise<ServerProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ORIGIN: baseUrl, ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
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
