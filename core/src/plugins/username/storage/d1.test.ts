import { Kysely } from 'kysely';
import { afterAll } from 'vitest';
import { D1Dialect } from '../../../storage/d1/dialect.js';
import { miniflareD1 } from '../../../storage/d1/d1-test-support.js';
import { runUsernameStorageConformance } from './conformance.js';
import { createSqlUsernameStorage } from './sql.js';

const d1 = miniflareD1();
afterAll(() => d1.dispose());
const db = new Kysely<any>({ dialect: new D1Dialect({ binding: d1.binding }) });
let runs = 0;

runUsernameStorageConformance('sql (d1)', async () => {
  const prefix = `username${++runs}`;
  const teardown = async () => {
    for (const name of [`${prefix}_names`, `${prefix}_migrations`, `${prefix}_migrations_lock`])
      await d1.binding.prepare(`DROP TABLE IF EXISTS "${name}"`).run();
  };
  return { storage: createSqlUsernameStorage(db, { dialect: 'sqlite', tablePrefix: prefix }), teardown };
});
