/**
 * Test support: `auth.handler` served over node:http on port 0 (the
 * socket's address handed over as the client IP), and a browser with its
 * own cookie jar.
 * @internal
 * @module
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Auth } from '../auth.js';

/**
 * Serves `auth.handler` over node:http, handing it the socket's address as the client IP. Only `handler` is
 * used, so a test that needs the server's URL before it creates the kit can pass `{ handler: (r, o) => … }`.
 */
export async function serve(auth: Pick<Auth, 'handler'>): Promise<{ base: string; server: Server }> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers as IncomingHttpHeaders)) {
      for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method!,
      headers,
      ...(hasBody ? { body: Buffer.concat(chunks) } : {}),
    });
    const response = await auth.handler(request, { ip: req.socket.remoteAddress! });
    const out: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') out[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length) out['set-cookie'] = cookies;
    res.writeHead(response.status, out).end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** A browser: a cookie jar and a User-Agent. */
export class Browser {
  readonly jar = new Map<string, string>();
  constructor(
    readonly base: string,
    readonly userAgent: string,
  ) {}

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('user-agent', this.userAgent);
    if (this.jar.size) headers.set('cookie', [...this.jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(this.base + path, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';')[0]!;
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      if (value === '' || /max-age=0/i.test(line)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return res;
  }

  async post(path: string, body: Record<string, unknown>): Promise<Response> {
    const { csrfToken } = (await (await this.fetch('/auth/csrf')).json()) as { csrfToken: string };
    return this.fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', origin: this.base },
      body: JSON.stringify({ csrfToken, ...body }),
    });
  }

  async sessionUser(): Promise<string | null> {
    const data = (await (await this.fetch('/auth/session', { headers: { accept: 'application/json' } })).json()) as {
      user: { email: string };
    } | null;
    return data?.user.email ?? null;
  }
}
