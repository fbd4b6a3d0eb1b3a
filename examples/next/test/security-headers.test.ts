// next.config.mjs lists the kit's page security headers itself (a config file cannot import the workspace's
// TypeScript sources): they must stay those of @framework/auth, less Cache-Control (Next.js sets no-store itself).
import { expect, it } from 'vitest';
import { PAGE_SECURITY_HEADERS } from '@framework/auth';
import { securityHeaders } from '../next.config.mjs';

it('next.config.mjs sends the kit’s page security headers', () => {
  const listed = Object.fromEntries(securityHeaders.map(({ key, value }) => [key.toLowerCase(), value]));
  const { 'cache-control': _cache, ...expected } = PAGE_SECURITY_HEADERS;
  expect(listed).toEqual(expected);
});
