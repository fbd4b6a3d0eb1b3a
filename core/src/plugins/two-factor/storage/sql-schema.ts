/**
 * The tables of the SQL two-factor storage, as Kysely migrations created by code.
 * @module
 * @internal
 */
import type { Kysely, Migration } from 'kysely';
import { createTable, type DialectTraits } from '../../../plugin-kit.js';

/** The names of the storage's tables for one `tablePrefix`. */
export interface TwoFactorTables {
  enrolments: string;
  backupCodes: string;
  trustedDevices: string;
  challenges: string;
  migrations: string;
  migrationLock: string;
}

/**
 * Table names derived from `tablePrefix` (default `two_factor`): `<p>`, `<p>_backup_codes`,
 * `<p>_trusted_devices`, `<p>_challenges`, `<p>_migrations`, `<p>_migrations_lock`.
 */
export function twoFactorTables(tablePrefix = 'two_factor'): TwoFactorTables {
  const p = tablePrefix;
  return {
    enrolments: p,
    backupCodes: `${p}_backup_codes`,
    trustedDevices: `${p}_trusted_devices`,
    challenges: `${p}_challenges`,
    migrations: `${p}_migrations`,
    migrationLock: `${p}_migrations_lock`,
  };
}

function initial(t: TwoFactorTables, traits: DialectTraits): Migration {
  const { int64, bool, key } = traits;
  return {
    async up(db: Kysely<any>) {
      await createTable(db, t.enrolments, traits)
        .addColumn('user_id', key, (c) => c.primaryKey())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('enabled', bool, (c) => c.notNull())
        .addColumn('last_used_step', int64)
        .addColumn('created_at', int64, (c) => c.notNull())
        .addColumn('enabled_at', int64)
        .execute();
      await createTable(db, t.backupCodes, traits)
        .addColumn('user_id', key, (c) => c.notNull())
        .addColumn('code_hash', key, (c) => c.notNull())
        .addPrimaryKeyConstraint(`${t.backupCodes}_pk`, ['user_id', 'code_hash'])
        .execute();
      await createTable(db, t.trustedDevices, traits)
        .addColumn('id', key, (c) => c.primaryKey())
        .addColumn('user_id', key, (c) => c.notNull())
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('user_agent', 'text')
        .addColumn('created_at', int64, (c) => c.notNull())
        .addColumn('expires_at', int64, (c) => c.notNull())
        .execute();
      await db.schema.createIndex(`${t.trustedDevices}_user_id_idx`).on(t.trustedDevices).column('user_id').execute();
      await createTable(db, t.challenges, traits)
        .addColumn('id', key, (c) => c.primaryKey())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('consumed', bool, (c) => c.notNull())
        .addColumn('expires_at', int64, (c) => c.notNull())
        .execute();
      await db.schema.createIndex(`${t.challenges}_expires_at_idx`).on(t.challenges).column('expires_at').execute();
    },
  };
}

/** The storage's migrations, in order (run by `pluginSql(...).migrate`, bookkeeping in `<prefix>_migrations`). */
export function twoFactorMigrations(t: TwoFactorTables, traits: DialectTraits): Record<string, Migration> {
  return { '0001_two_factor': initial(t, traits) };
}
