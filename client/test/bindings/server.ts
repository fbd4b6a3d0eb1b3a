/**
 * A real node:http server for the framework-binding tests: the kit's auth
 * routes (`createAuth` with a credentials provider over the memory adapter,
 * handled in-process) under `/auth`, and tiny pages that load one bundled
 * script each. Listens on port 0 (127.0.0.1).
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAuth, credentials, createMemoryAdapter, passwordAccounts } from '@framework/auth';

export const EMAIL = 'ada@example.com';
export const PASSWORD = 'analytical-engine';

/** The running server: its origin and `close()`. */
export interface BindingServer {
  base: string;
  close(): Promise<void>;
}

async function engine() {
  const adapter = createMemoryAdapter();
  const passwords = passwordAccounts(adapter);
  await passwords.register({ email: EMAIL, password: PASSWORD, name: 'Ada' });
  return createAuth({
    session: { strategy: 'database' },
    adapter,
    providers: [
      credentials({
        credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
        authorize: passwords.authorize,
      }),
    ],
  });
}

/** The node:http request as a fetch `Request` on `origin` (the body read whole; GET/HEAD without one). */
export async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', origin), {
    method: req.method,
    headers,
    ...(hasBody ? { body: Buffer.concat(chunks) } : {}),
  });
}

/** Writes a fetch `Response` to the node:http response, each Set-Cookie as its own header line. */
export async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  res.writeHead(response.status, headers).end(Buffer.from(await response.arrayBuffer()));
}

/**
 * Starts the server. `scripts` maps a page name to its bundled script:
 * `GET /{name}` answers a page with an empty `#app` that loads
 * `/{name}.js`.
 */
export async function startBindingServer(scripts: Record<string, string>): Promise<BindingServer> {
  const auth = await engine();
  let origin = '';
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path.startsWith('/auth/')) {
      void toRequest(req, origin)
        .then((request) => auth.handler(request))
        .then((response) => send(res, response));
      return;
    }
    const name = path.slice(1).replace(/\.js$/, '');
    const script = scripts[name];
    if (script === undefined) return void res.writeHead(404).end();
    if (path.endsWith('.js')) return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(`<!doctype html><title>${name}</title><div id="app"></div><script src="/${name}.js"></script>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base: origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
