import { beforeAll, describe, expect, it, vi } from 'vitest';
import { AuthConfigError, ForbiddenError, UnauthenticatedError } from '../errors.js';
import { TenantNotFoundError } from './errors.js';
import { createTenantResolver, type TenantResolverOptions } from './resolver.js';
import { createMemoryTenantStorage } from './storage/memory.js';
import type { Tenant, TenantStorage } from './types.js';

let storage: TenantStorage;
let acme: Tenant;
beforeAll(async () => {
  storage = createMemoryTenantStorage();
  acme = await storage.create({ id: 'acme-id', slug: 'acme', name: 'Acme' });
  await storage.create({ id: 'globex-id', slug: 'globex', name: 'Globex' });
  await storage.addMember({ tenantId: acme.id, userId: 'member-1', role: 'owner' });
});

/** Resolves `request` and returns the slug found (or null), counting storage lookups. */
async function slugFor(
  options: TenantResolverOptions,
  request: Request,
): Promise<{ slug: string | null; lookups: number }> {
  const get = vi.spyOn(storage, 'get');
  try {
    const tenant = await createTenantResolver(storage, options).resolve(request);
    return { slug: tenant?.slug ?? null, lookups: get.mock.calls.length };
  } finally {
    get.mockRestore();
  }
}
const at = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers });

describe('subdomain strategy', () => {
  const options: TenantResolverOptions = { strategy: 'subdomain', baseDomain: 'example.com' };
  it.each([
    ['https://acme.example.com/', 'acme'],
    ['https://ACME.Example.COM/dashboard', 'acme'],
    ['https://acme.example.com:8443/', 'acme'],
    ['https://acme.example.com./', 'acme'],
    ['https://globex.example.com/x?y=1', 'globex'],
    ['https://unknown.example.com/', null],
  ])('%s → %s', async (url, expected) => {
    expect((await slugFor(options, at(url))).slug).toBe(expected);
  });

  it.each([
    'https://example.com/',
    'https://www.example.com/',
    'https://evilexample.com/',
    'https://acmeexample.com/',
    'https://acme.example.com.evil.net/',
    'https://example.com.evil.net/',
    'https://a.acme.example.com/',
    'https://acme.example.com../',
    'https://xn--cme-8cd.example.com/',
    'https://аcme.example.com/',
    'https://bücher.example.com/',
    'https://-acme.example.com/',
    'https://127.0.0.1/',
    'https://[::1]:3000/',
  ])('%s names no tenant and costs no lookup', async (url) => {
    expect(await slugFor(options, at(url))).toStrictEqual({ slug: null, lookups: 0 });
  });

  it('normalizes baseDomain: case, leading and trailing dots, IDN to punycode', async () => {
    expect(
      (await slugFor({ strategy: 'subdomain', baseDomain: '.Example.COM.' }, at('https://acme.example.com/'))).slug,
    ).toBe('acme');
    expect(
      (await slugFor({ strategy: 'subdomain', baseDomain: 'bücher.de' }, at('https://acme.xn--bcher-kva.de/'))).slug,
    ).toBe('acme');
    expect(
      (await slugFor({ strategy: 'subdomain', baseDomain: 'localhost' }, at('http://acme.localhost:3000/'))).slug,
    ).toBe('acme');
  });

  it('ignores the Host header when the request URL says otherwise (adapters build the URL from Host)', async () => {
    expect((await slugFor(options, at('https://example.com/', { host: 'acme.example.com' }))).slug).toBeNull();
  });
});

describe('path strategy', () => {
  const options: TenantResolverOptions = { strategy: 'path' };
  it.each([
    ['https://app.test/t/acme', 'acme'],
    ['https://app.test/t/acme/', 'acme'],
    ['https://app.test/t/acme/settings/billing', 'acme'],
    ['https://app.test/t/ACME/', 'acme'],
    ['https://app.test/t/acme-id/', 'acme'],
    ['https://app.test/x/../t/acme/', 'acme'],
  ])('%s → %s', async (url, expected) => {
    expect((await slugFor(options, at(url))).slug).toBe(expected);
  });

  it.each([
    'https://app.test/',
    'https://app.test/t/',
    'https://app.test/t//acme/',
    'https://app.test/t',
    'https://app.test/tacme/',
    'https://app.test/T/acme/',
    'https://app.test/t/../admin/',
    'https://app.test/t/%2e%2e/admin',
    'https://app.test/t/..%2Facme/',
    'https://app.test/t/acme%2Fevil/',
    'https://app.test/t/ac%6De/',
    'https://app.test/t/acme.json',
    'https://app.test/t/xn--cme-8cd/',
    'https://app.test/t/acme_/',
    'https://app.test/other/t/acme/',
  ])('%s names no tenant and costs no lookup', async (url) => {
    expect(await slugFor(options, at(url))).toStrictEqual({ slug: null, lookups: 0 });
  });

  it('honours a custom pathPrefix', async () => {
    expect((await slugFor({ strategy: 'path', pathPrefix: '/orgs/' }, at('https://app.test/orgs/globex/x'))).slug).toBe(
      'globex',
    );
    expect(
      (await slugFor({ strategy: 'path', pathPrefix: '/orgs/' }, at('https://app.test/t/globex/x'))).slug,
    ).toBeNull();
    expect((await slugFor({ strategy: 'path', pathPrefix: '/' }, at('https://app.test/globex'))).slug).toBe('globex');
  });
});

describe('header and cookie strategies', () => {
  it.each([
    [{ 'x-tenant-id': 'acme-id' }, 'acme'],
    [{ 'X-Tenant-ID': 'globex' }, 'globex'],
    [{ 'x-tenant-id': 'GLOBEX' }, 'globex'],
    [{ 'x-tenant-id': 'acme, globex' }, null],
    [{ 'x-tenant-id': '../acme' }, null],
    [{ 'x-tenant-id': 'acme.example.com' }, null],
    [{ 'x-tenant-id': '' }, null],
    [{}, null],
  ])('X-Tenant-ID %j → %s', async (headers, expected) => {
    expect((await slugFor({ strategy: 'header' }, at('https://app.test/', headers))).slug).toBe(expected);
  });

  it('honours headerName', async () => {
    expect(
      (await slugFor({ strategy: 'header', headerName: 'X-Org' }, at('https://app.test/', { 'x-org': 'acme' }))).slug,
    ).toBe('acme');
    expect(
      (await slugFor({ strategy: 'header', headerName: 'X-Org' }, at('https://app.test/', { 'x-tenant-id': 'acme' })))
        .slug,
    ).toBeNull();
  });

  it.each([
    ['tenant=acme', 'acme'],
    ['theme=dark; tenant=globex-id', 'globex'],
    ['tenant=ACME', 'acme'],
    ['tenant=%61cme', 'acme'],
    ['tenant="acme"', null],
    ['tenant=..', null],
    ['tenant=acme%2F..', null],
    ['tenants=acme', null],
    ['', null],
  ])('Cookie %j → %s', async (cookie, expected) => {
    expect((await slugFor({ strategy: 'cookie' }, at('https://app.test/', cookie ? { cookie } : {}))).slug).toBe(
      expected,
    );
  });

  it('honours cookieName', async () => {
    expect(
      (await slugFor({ strategy: 'cookie', cookieName: 'org' }, at('https://app.test/', { cookie: 'org=globex' })))
        .slug,
    ).toBe('globex');
  });
});

describe('require and requireMember', () => {
  const resolver = () => createTenantResolver(storage, { strategy: 'path' });

  it('require returns { tenant } or throws TenantNotFoundError (TENANT_NOT_FOUND, 404)', async () => {
    expect(await resolver().require(at('https://app.test/t/acme/'))).toStrictEqual({ tenant: acme });
    const missing = resolver().require(at('https://app.test/t/nope/'));
    await expect(missing).rejects.toBeInstanceOf(TenantNotFoundError);
    await expect(resolver().require(at('https://app.test/'))).rejects.toMatchObject({
      code: 'TENANT_NOT_FOUND',
      status: 404,
      message: 'Tenant not found',
    });
  });

  it('requireMember returns the tenant and membership of a member', async () => {
    const { tenant, membership } = await resolver().requireMember(at('https://app.test/t/acme/'), { id: 'member-1' });
    expect(tenant).toStrictEqual(acme);
    expect(membership).toMatchObject({ tenantId: acme.id, userId: 'member-1', role: 'owner' });
  });

  it('requireMember: non-member → ForbiddenError (403); no user → UnauthenticatedError (401); no tenant → 404', async () => {
    await expect(resolver().requireMember(at('https://app.test/t/acme/'), { id: 'stranger' })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    await expect(resolver().requireMember(at('https://app.test/t/globex/'), { id: 'member-1' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      status: 403,
    });
    await expect(resolver().requireMember(at('https://app.test/t/acme/'), null)).rejects.toBeInstanceOf(
      UnauthenticatedError,
    );
    await expect(resolver().requireMember(at('https://app.test/t/nope/'), { id: 'member-1' })).rejects.toBeInstanceOf(
      TenantNotFoundError,
    );
  });
});

describe('options are checked at creation', () => {
  it.each<[unknown, RegExp]>([
    [{ strategy: 'query' }, /strategy must be "subdomain", "path", "header" or "cookie"/],
    [{}, /strategy must be/],
    [{ strategy: 'subdomain' }, /needs baseDomain/],
    [{ strategy: 'subdomain', baseDomain: 'example.com:443' }, /baseDomain must be a domain name/],
    [{ strategy: 'subdomain', baseDomain: 'example.com/app' }, /baseDomain must be a domain name/],
    [{ strategy: 'subdomain', baseDomain: 'com' }, /baseDomain must be a domain name/],
    [{ strategy: 'subdomain', baseDomain: '10.0.0.1' }, /baseDomain must be a domain name/],
    [{ strategy: 'path', pathPrefix: 't/' }, /pathPrefix must start and end with "\/"/],
    [{ strategy: 'path', pathPrefix: '/t' }, /pathPrefix must start and end/],
    [{ strategy: 'path', pathPrefix: '/../' }, /pathPrefix must start and end/],
    [{ strategy: 'header', headerName: 'X Tenant' }, /headerName must be an HTTP header name/],
    [{ strategy: 'cookie', cookieName: 'a;b' }, /cookieName must be a cookie name/],
    [null, /expected \{ strategy/],
  ])('%j is rejected', (options, message) => {
    expect(() => createTenantResolver(storage, options as TenantResolverOptions)).toThrow(AuthConfigError);
    expect(() => createTenantResolver(storage, options as TenantResolverOptions)).toThrow(message);
  });

  it('rejects a missing storage', () => {
    expect(() => createTenantResolver(undefined as never, { strategy: 'path' })).toThrow(/tenant storage/);
  });
});
