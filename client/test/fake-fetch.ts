/**
 * A scripted stand-in for the auth routes, for the client's Node tests:
 * records every call and answers from a small mutable state.
 */
export interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  credentials: RequestCredentials | undefined;
  body: Record<string, unknown> | undefined;
}

export interface FakeServer {
  fetch: typeof fetch;
  calls: Call[];
  /** The session `GET /session` answers with (a raw JSON value). */
  session: unknown;
  /** Status of `GET /session`; a thrown error when 'network'. */
  sessionStatus: number | 'network';
  /** Accepted password for `POST /callback/credentials`. */
  password: string;
  /** Resolves pending session reads when set (to hold answers back). */
  gate: Promise<void> | null;
  inFlight: number;
  maxInFlight: number;
}

const json = (status: number, data: unknown) =>
  new Response(JSON.stringify(data), { status, headers: { 'content-type': 'application/json' } });
export const ADA = {
  user: { id: 'u1', name: 'Ada', email: 'ada@example.com', image: null },
  expires: '2030-01-01T00:00:00.000Z',
};

export function fakeServer(): FakeServer {
  const server: FakeServer = {
    calls: [],
    session: null,
    sessionStatus: 200,
    password: 'right-password',
    gate: null,
    inFlight: 0,
    maxInFlight: 0,
    fetch: async (input, init = {}) => {
      const url = String(input);
      const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
      const call: Call = {
        url,
        method: init.method ?? 'GET',
        headers: { ...(init.headers as Record<string, string>) },
        credentials: init.credentials,
        body,
      };
      server.calls.push(call);
      const path = new URL(url, 'http://localhost').pathname.replace(
        /^.*?(?=\/(csrf|session|signout|callback\/|signin\/))/,
        '',
      );
      if (path === '/csrf') return json(200, { csrfToken: 'tok' });
      if (path === '/session') {
        server.inFlight++;
        server.maxInFlight = Math.max(server.maxInFlight, server.inFlight);
        try {
          if (server.gate) await server.gate;
          if (server.sessionStatus === 'network') throw new TypeError('fetch failed');
          return json(server.sessionStatus, server.session);
        } finally {
          server.inFlight--;
        }
      }
      if (body?.csrfToken !== 'tok') return json(403, { error: { code: 'CSRF_TOKEN_INVALID', message: 'no' } });
      if (path === '/callback/credentials') {
        if (body.password !== server.password)
          return json(401, { error: { code: 'INVALID_CREDENTIALS', message: 'no' } });
        server.session = ADA;
        return json(200, { ok: true, url: body.callbackUrl ?? '/' });
      }
      if (path.startsWith('/signin/')) return json(200, { ok: true, url: 'https://provider.example/authorize' });
      if (path === '/signout') {
        server.session = null;
        return json(200, { ok: true, url: body.callbackUrl ?? '/' });
      }
      return json(404, { error: { code: 'NOT_FOUND', message: 'no' } });
    },
  };
  return server;
}

/** Waits until `check` holds, polling every few milliseconds (at most `ms`). */
export async function until(check: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
