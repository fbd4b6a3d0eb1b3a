/**
 * A local stand-in for a captcha provider's verify endpoint on port 0: it records each verification (content type
 * and form fields) and answers like the providers do: `good` passes, `low` passes with a score of 0.2, anything
 * else fails with `invalid-input-response`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Verification {
  contentType: string | undefined;
  form: Record<string, string>;
}

export interface FakeVerify {
  url: string;
  calls: Verification[];
  close(): Promise<void>;
}

export async function fakeVerifyServer(): Promise<FakeVerify> {
  const calls: Verification[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      calls.push({ contentType: req.headers['content-type'], form });
      const answer =
        form.response === 'good'
          ? { success: true, score: 0.9 }
          : form.response === 'low'
            ? { success: true, score: 0.2 }
            : { success: false, 'error-codes': ['invalid-input-response'] };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/siteverify`,
    calls,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
