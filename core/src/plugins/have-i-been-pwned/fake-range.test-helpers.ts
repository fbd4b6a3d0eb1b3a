/**
 * A local stand-in for the Pwned Passwords range API on port 0: `GET /range/{prefix}` answers the suffixes of the
 * breached passwords it was given under that prefix (`SUFFIX:COUNT` lines) and, when asked with
 * `Add-Padding: true`, decoy lines with a count of 0. It records every request's path and headers.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RangeRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface FakeRange {
  /** The `endpoint` option: `http://127.0.0.1:<port>/range/`. */
  endpoint: string;
  requests: RangeRequest[];
  close(): Promise<void>;
}

export const sha1 = (text: string) => createHash('sha1').update(text).digest('hex').toUpperCase();

/** `breached`: password → count (0 lists it as a padding line would). */
export async function fakeRangeServer(breached: Record<string, number>): Promise<FakeRange> {
  const requests: RangeRequest[] = [];
  const hashes = Object.entries(breached).map(([password, count]) => [sha1(password), count] as const);
  const server = createServer((req, res) => {
    requests.push({ path: req.url ?? '', headers: req.headers });
    const prefix = /^\/range\/([0-9A-F]{5})$/.exec(req.url ?? '')?.[1];
    if (!prefix) return void res.writeHead(400).end();
    const lines = hashes.filter(([h]) => h.startsWith(prefix)).map(([h, count]) => `${h.slice(5)}:${count}`);
    if (req.headers['add-padding'] === 'true')
      for (let i = 0; i < 3; i++) lines.push(`${sha1(`decoy${i}`).slice(5)}:0`);
    res.writeHead(200, { 'content-type': 'text/plain' }).end(lines.join('\r\n'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/range/`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
