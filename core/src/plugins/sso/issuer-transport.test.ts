/**
 * The issuer transport against real servers on port 0: the address a connection goes to is the one the vetted
 * lookup answered (a rebinding DNS answer that turns private after the check is refused, and no connection is
 * made), TLS is verified for the host name (not the address), and redirects are never followed, so a public
 * endpoint cannot pass a request on to a private one.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthError } from '../../plugin-kit.js';
import { issuerFetch, type LookupAddresses } from './issuer-policy.js';
import { pinnedFetch } from './issuer-transport.js';
import { MAX_METADATA_BYTES, fetchIdpMetadata } from './saml-metadata-url.js';

/** A public unicast address (not a documentation range: `ipaddr.js` counts those as reserved). */
const PUBLIC = '93.184.215.14';
const HOST = 'idp.test';

interface Seen {
  method: string;
  url: string;
  host: string | undefined;
  encoding: string | undefined;
  servername: string | false | null | undefined;
  body: string;
}

let cert: string;
let tlsServer: Server;
let tlsPort: number;
/** Requests and TCP connections the TLS server received. */
const seen: Seen[] = [];
let tlsConnections = 0;
let inner: Server;
let innerPort: number;
/** Requests the private ("internal") plain HTTP server received. */
const innerSeen: string[] = [];

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}

beforeAll(async () => {
  const pems = await generate([{ name: 'commonName', value: HOST }], { keyType: 'ec', algorithm: 'sha256' });
  cert = pems.cert;
  tlsServer = createHttpsServer({ key: pems.private, cert: pems.cert }, async (req, res) => {
    seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      host: req.headers.host,
      encoding: req.headers['accept-encoding'],
      servername: (req.socket as TLSSocket).servername,
      body: await bodyOf(req),
    });
    if (req.url === '/stall') return; // never answers
    if (req.url === '/stall-body') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"keys":');
      return; // never ends
    }
    if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.write('<x>');
      res.end(`${'y'.repeat(MAX_METADATA_BYTES)}</x>`); // chunked, no content-length: the cap counts while reading
      return;
    }
    if (req.url === '/moved') {
      res.writeHead(302, { location: `http://127.0.0.1:${innerPort}/latest/meta-data/` }).end();
    } else {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
    }
  });
  tlsServer.on('connection', () => tlsConnections++);
  tlsPort = await listen(tlsServer);
  inner = createHttpServer((req, res) => {
    innerSeen.push(req.url ?? '');
    res.writeHead(200).end('secret');
  });
  innerPort = await listen(inner);
});

afterAll(async () => {
  await new Promise<void>((resolve) => tlsServer.close(() => resolve()));
  await new Promise<void>((resolve) => inner.close(() => resolve()));
});

/** A lookup that answers `answers[i]` to its i-th call (the last one from then on), recording the names asked. */
function rebinding(...answers: string[]) {
  const asked: string[] = [];
  const lookup: LookupAddresses = async (hostname) => {
    const address = answers[Math.min(asked.length, answers.length - 1)]!;
    asked.push(hostname);
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };
  return { asked, lookup };
}

const codeOf = (error: unknown) => (error instanceof AuthError ? error.code : String(error));

describe('issuerFetch without a fetch of the caller’s: the connection goes to the checked address', () => {
  it('refuses a name that answers public to the check and loopback to the connection; no connection is made', async () => {
    const dns = rebinding(PUBLIC, '127.0.0.1');
    const connectionsBefore = tlsConnections;
    const guarded = issuerFetch({ allowPrivate: false, lookup: dns.lookup });
    const error = await guarded(`https://${HOST}:${tlsPort}/.well-known/openid-configuration`).catch((e) => e);
    expect(codeOf(error)).toBe('SSO_ISSUER_NOT_ALLOWED');
    // Asked twice: the check, then the connection's own lookup, which saw the private answer and refused it.
    expect(dns.asked).toEqual([HOST, HOST]);
    expect(tlsConnections).toBe(connectionsBefore);
  });

  it('refuses a rebinding metadataUrl the same way (SAML registration)', async () => {
    const dns = rebinding(PUBLIC, '::ffff:127.0.0.1');
    const connectionsBefore = tlsConnections;
    const error = await fetchIdpMetadata(`https://${HOST}:${tlsPort}/metadata`, {
      allowPrivate: false,
      lookup: dns.lookup,
    }).catch((e) => e);
    expect(codeOf(error)).toBe('SSO_ISSUER_NOT_ALLOWED');
    expect(dns.asked).toEqual([HOST, HOST]);
    expect(tlsConnections).toBe(connectionsBefore);
  });
});

describe('pinnedFetch', () => {
  /** A resolver that answers the local servers' address for every name (as a vetted lookup would a public one). */
  const local = async () => [{ address: '127.0.0.1', family: 4 }];

  it('connects to the resolved address with the name as TLS server name and Host, body and headers intact', async () => {
    const send = pinnedFetch(local, { ca: cert });
    const res = await send(`https://${HOST}:${tlsPort}/token?x=1`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'c' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(seen.at(-1)).toEqual({
      method: 'POST',
      url: '/token?x=1',
      host: `${HOST}:${tlsPort}`,
      encoding: 'identity',
      servername: HOST,
      body: 'grant_type=authorization_code&code=c',
    });
  });

  it('verifies the certificate for the host name, not the address', async () => {
    const send = pinnedFetch(local, { ca: cert });
    const error = await send(`https://other.test:${tlsPort}/`).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as NodeJS.ErrnoException).code).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
  });

  it('returns a redirect to a private address as it is, whatever the caller asked: the hop is never made', async () => {
    const send = pinnedFetch(local, { ca: cert });
    const res = await send(`https://${HOST}:${tlsPort}/moved`, { redirect: 'follow' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`http://127.0.0.1:${innerPort}/latest/meta-data/`);
    expect(innerSeen).toEqual([]);
  });

  it('rejects with the resolver’s own error when it refuses', async () => {
    const refusal = new Error('refused by the test');
    const send = pinnedFetch(async () => {
      throw refusal;
    });
    await expect(send(`http://${HOST}:${innerPort}/`)).rejects.toBe(refusal);
    expect(innerSeen).toEqual([]);
  });

  it('gives up on a server that stops answering, before the headers or in the body', async () => {
    const send = pinnedFetch(local, { ca: cert, idleTimeoutMs: 50 });
    await expect(send(`https://${HOST}:${tlsPort}/stall`)).rejects.toThrow('idle timeout');
    const res = await send(`https://${HOST}:${tlsPort}/stall-body`);
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });

  it('streams a body to the metadata reader, which stops past its cap', async () => {
    const send = pinnedFetch(local, { ca: cert });
    const open = { allowPrivate: true, lookup: async () => [] };
    expect(await fetchIdpMetadata(`https://${HOST}:${tlsPort}/token`, open, send)).toBe('{"ok":true}');
    const error = await fetchIdpMetadata(`https://${HOST}:${tlsPort}/big`, open, send).catch((e) => e);
    expect([codeOf(error), (error as Error).message]).toEqual([
      'SSO_PROVIDER_INVALID',
      'The metadata at `metadataUrl` is too large',
    ]);
  });

  it('aborts on the caller’s signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    const send = pinnedFetch(local);
    await expect(send(`http://${HOST}:${innerPort}/`, { signal: controller.signal })).rejects.toThrow('stop');
  });
});
