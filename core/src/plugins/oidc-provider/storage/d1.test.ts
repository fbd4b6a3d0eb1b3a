import { Kysely } from 'kysely';
import { afterAll } from 'vitest';
import { D1Dialect } from '../../../storage/d1/dialect.js';
import { miniflareD1 } from '../../../storage/d1/d1-test-support.js';
import { runOidcProviderStorageConformance } from './conformance.test-helpers.js';
import { createSqlOidcProviderStorage } from './sql.js';
import { oidcTables } from './sql-schema.js';

const d1 = miniflareD1();
afterAll(() => d1.dispose());
const db = new Kysely<any>({ dialect: new D1Dialect({ binding: d1.binding }) });
let runs = 0;

runOidcProviderStorageConformance('sql (d1)', async () => {
  const prefix = `op${++runs}`;
  const teardown = async () => {
    const names = [...Object.values(oidcTables(prefix)), `${prefix}_migrations`, `${prefix}_migrations_lock`];
    for (const name of names) await d1.binding.prepare(`DROP TABLE IF EXISTS "${name}"`).run();
  };
  return { storage: createSqlOidcProviderStorage(db, { dialect: 'sqlite', tablePrefix: prefix }), teardown };
});
