/**
 * `oidcProvider()` on SQL adapters with no `storage` given: its tables live in the auth adapter's own database
 * (`auth.migrate()` creates them), and openid-client's code flow, a refresh with rotation and a reused refresh
 * token's family revocation work there as on memory (SQLite in memory, PostgreSQL in a fresh schema).
 */
import * as client from 'openid-client';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresSchemas } from '../../../../test-support/pg-schemas.js';
import { createSqliteAdapter } from '../../storage/sql/sqlite.js';
import { postgresAdapterIn } from '../../storage/sql/sql-test-support.js';
import type { StorageAdapter } from '../../storage/types.js';
import { RP_SECRET, openidCodeFlow, startProvider } from './provider-harness.test-helpers.js';

function onAdapter(name: string, open: () => Promise<StorageAdapter>) {
  it(`${name}: the code flow, a rotation, and a reuse that revokes the family`, async () => {
    const adapter = await open();
    const op = await startProvider({ adapter });
    try {
      await op.auth.migrate();
      await op.auth.migrate(); // idempotent
      const tables = (await adapter.kysely!.introspection.getTables()).map((t) => t.name);
      expect(tables).toEqual(
        expect.arrayContaining(['oidc_clients', 'oidc_codes', 'oidc_grants', 'oidc_refresh_tokens']),
      );
      const config = await client.discovery(new URL(op.issuer), 'rp', undefined, client.ClientSecretBasic(RP_SECRET), {
        execute: [client.allowInsecureRequests],
      });
      const { tokens } = await openidCodeFlow(op, config);
      expect(tokens.claims()?.sub).toBe(op.userId);
      expect(await client.fetchUserInfo(config, tokens.access_token, op.userId)).toMatchObject({ sub: op.userId });
      const next = await client.refreshTokenGrant(config, tokens.refresh_token!);
      await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      expect((await client.tokenIntrospection(config, next.access_token)).active).toBe(false);
    } finally {
      await op.close();
      await adapter.close?.();
    }
  });
}

describe('oidcProvider on SQLite', () => {
  onAdapter('SQLite', async () => createSqliteAdapter({ filename: ':memory:' }));
});

// Under CI=true this throws when PostgreSQL is down, failing the file.
const pg = await postgresSchemas('oidc_provider_e2e');
describe.skipIf(!pg.available)('oidcProvider on PostgreSQL', () => {
  afterAll(() => pg.dropAll());
  onAdapter('PostgreSQL', () => postgresAdapterIn(pg, { max: 4 }));
});
