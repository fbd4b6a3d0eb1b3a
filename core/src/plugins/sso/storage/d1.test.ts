import { Kysely } from 'kysely';
import { afterAll } from 'vitest';
import { D1Dialect } from '../../../storage/d1/dialect.js';
import { miniflareD1 } from '../../../storage/d1/d1-test-support.js';
import { runSsoStorageConformance } from './conformance.test-helpers.js';
import { createSqlSsoStorage } from './sql.js';

const d1 = miniflareD1();
afterAll(() => d1.dispose());
const db = new Kysely<any>({ dialect: new D1Dialect({ binding: d1.binding }) });
let runs = 0;

runSsoStorageConformance('sql (d1)', async () => {
  const prefix = `sso${++runs}`;
  const teardown = async () => {
    for (const table of ['providers', 'domains', 'once', 'migrations', 'migrations_lock'])
      await d1.binding.prepare(`DROP TABLE IF EXISTS "${prefix}_${table}"`).run();
  };
  return { storage: createSqlSsoStorage(db, { dialect: 'sqlite', tablePrefix: prefix }), teardown };
});
