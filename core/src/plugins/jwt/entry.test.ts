import { describe, expect, it } from 'vitest';

describe('@framework/auth/plugins/jwt', () => {
  it('is its own subpath export; the main entry does not carry it', async () => {
    const entry = await import('@framework/auth/plugins/jwt');
    expect(Object.keys(entry).sort()).toStrictEqual([
      'ACCESS_TOKEN_TYPE',
      'createMemoryJwksStorage',
      'createSqlJwksStorage',
      'jwt',
      'verifyAccessToken',
    ]);
    const core = await import('@framework/auth');
    for (const name of Object.keys(entry)) expect(core).not.toHaveProperty(name);
  });
});
