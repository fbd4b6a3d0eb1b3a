import Database from 'better-sqlite3';
import { getTableName } from 'drizzle-orm';
import { drizzle as pgDrizzle } from 'drizzle-orm/node-postgres';
import { drizzle as sqliteDrizzle } from 'drizzle-orm/better-sqlite3';
import { getTableConfig as pgConfig, type PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveUserFields } from '../../user-fields/definitions.js';
import type { UserFieldsConfig } from '../../user-fields/types.js';
import { runStorageConformance } from '../conformance.js';
import { createDrizzleAdapter } from './adapter.js';
import { pgPools } from './drizzle-test-support.js';
import { generateDrizzleSchema } from './generate.js';
import { SCHEMA_KEYS, type DrizzleDialect } from './spec.js';
import type { DrizzleAuthSchema } from './tables.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
// The generated files live outside the repository, beside a link to its node_modules (for `drizzle-orm`).
const dir = await mkdtemp(join(tmpdir(), 'auth-drizzle-schema-'));
await symlink(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir');
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Custom user fields of every type, a unique one and defaults of each kind (a quote in the string one). */
const additionalFields = {
  plan: { type: 'string', defaultValue: "free's" },
  seats: { type: 'number', defaultValue: 1.5 },
  vip: { type: 'boolean', defaultValue: false },
  trialEndsAt: { type: 'date' },
  tags: { type: 'string[]' },
  handle: { type: 'string', unique: true },
} satisfies UserFieldsConfig;
/** A schema file's variant: the kit's tables, or with the fields above. */
type Variant = DrizzleDialect | `${DrizzleDialect}+fields`;
const VARIANTS = ['sqlite', 'postgres', 'sqlite+fields', 'postgres+fields'] as const;
const files = Object.fromEntries(VARIANTS.map((v) => [v, join(dir, `${v.replace('+', '-')}.ts`)])) as Record<
  Variant,
  string
>;
for (const variant of VARIANTS) {
  const dialect = variant.replace('+fields', '') as DrizzleDialect;
  const user = variant.endsWith('+fields') ? { additionalFields } : undefined;
  await writeFile(files[variant], generateDrizzleSchema({ dialect, ...(user ? { user } : {}) }));
}
const load = async (variant: Variant) =>
  (await import(/* @vite-ignore */ pathToFileURL(files[variant]).href)) as DrizzleAuthSchema;
/** The adapter over `db` with the variant's fields configured. */
function adapterOf(db: Parameters<typeof createDrizzleAdapter>[0], schema: DrizzleAuthSchema, variant: Variant) {
  const adapter = createDrizzleAdapter(db, { schema });
  if (variant.endsWith('+fields')) adapter.configureUserFields!(resolveUserFields(additionalFields));
  return adapter;
}

/** Compiler errors of `file` under strict settings, as `line: message`. */
function typeErrors(file: string): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    noUnusedLocals: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
    return `${line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

/** One table's shape: columns as `name type [not null] [pk]`, index and composite-key names. */
interface Shape {
  columns: string[];
  indexes: string[];
}

describe('generateDrizzleSchema', () => {
  it.each(VARIANTS)('prints a %s schema that typechecks under strict settings', (variant) => {
    expect(typeErrors(files[variant])).toStrictEqual([]);
  });

  it('prints the columns of user.additionalFields, their defaults and unique indexes', () => {
    const source = generateDrizzleSchema({ dialect: 'postgres', user: { additionalFields } });
    expect(source).toContain("plan: text('plan').default('free\\'s'),");
    expect(source).toContain("seats: doublePrecision('seats').default(1.5),");
    expect(source).toContain("vip: boolean('vip').default(false),");
    expect(source).toContain("trialEndsAt: bigint('trial_ends_at', { mode: 'number' }),");
    expect(source).toContain("uniqueIndex('auth_users_handle_key').on(t.handle),");
    expect(generateDrizzleSchema({ dialect: 'sqlite', user: { additionalFields } })).toContain(
      "seats: real('seats').default(1.5),",
    );
  });

  it('exports the five tables under the kit prefix, or another one', async () => {
    const schema = await load('sqlite');
    expect(SCHEMA_KEYS.map((key) => getTableName(schema[key]))).toStrictEqual([
      'auth_users',
      'auth_accounts',
      'auth_sessions',
      'auth_verification_tokens',
      'auth_authenticators',
    ]);
    expect(generateDrizzleSchema({ dialect: 'postgres', tablePrefix: 'kit_' })).toContain(
      "pgTable(\n  'kit_sessions',",
    );
    expect(() => generateDrizzleSchema({ dialect: 'mysql' as never })).toThrow(TypeError);
  });

  it.each(['sqlite', 'sqlite+fields'] as const)(
    'matches, on SQLite, the tables the kit migrations create (%s)',
    async (variant) => {
      const schema = await load(variant);
      const client = new Database(':memory:');
      await adapterOf(sqliteDrizzle(client), schema, variant).migrate();
      for (const key of SCHEMA_KEYS) {
        const config = sqliteConfig(schema[key] as SQLiteTable);
        const pk = config.primaryKeys.map((k) => k.columns.map((c) => c.name));
        const expected: Shape = {
          columns: config.columns.map(
            (c) =>
              `${c.name} ${c.getSQLType()}${c.notNull ? ' not null' : ''}${c.primary || pk.flat().includes(c.name) ? ' pk' : ''}`,
          ),
          indexes: config.indexes.map((i) => i.config.name).sort(),
        };
        const info = client.prepare(`pragma table_info("${config.name}")`).all() as {
          name: string;
          type: string;
          notnull: number;
          pk: number;
        }[];
        const indexes = client.prepare(`pragma index_list("${config.name}")`).all() as {
          name: string;
          origin: string;
        }[];
        // Drizzle declares primary keys NOT NULL; SQLite lets a TEXT primary key without it hold NULL (never stored).
        // A custom number field's column is `double precision` (REAL affinity, as Drizzle's `real`).
        const live: Shape = {
          columns: info.map(
            (c) =>
              `${c.name} ${c.type.toLowerCase().replace('double precision', 'real')}${c.notnull || c.pk ? ' not null' : ''}${c.pk ? ' pk' : ''}`,
          ),
          indexes: indexes
            .filter((i) => i.origin === 'c')
            .map((i) => i.name)
            .sort(),
        };
        expect(live, config.name).toStrictEqual(expected);
      }
      client.close();
    },
  );
});

runStorageConformance('drizzle (better-sqlite3, generated schema)', async () => {
  const client = new Database(':memory:');
  const adapter = createDrizzleAdapter(sqliteDrizzle(client), { schema: await load('sqlite') });
  return { adapter, teardown: async () => void client.close() };
});

const pg = await pgPools('drizzle_schema_test');
describe.skipIf(!pg.available)('generateDrizzleSchema on PostgreSQL', () => {
  afterAll(() => pg.dropAll());

  it.each(['postgres', 'postgres+fields'] as const)(
    'matches the tables the kit migrations create (%s)',
    async (variant) => {
      const schema = await load(variant);
      const pool = await pg.pool();
      try {
        await adapterOf(pgDrizzle(pool), schema, variant).migrate();
        const { rows: trgm } = await pool.query(`select 1 from pg_extension where extname = 'pg_trgm'`);
        for (const key of SCHEMA_KEYS) {
          const config = pgConfig(schema[key] as PgTable);
          const expected: Shape = {
            columns: config.columns.map(
              (c) => `${c.name} ${c.getSQLType()}${c.notNull || c.primary ? ' not null' : ''}`,
            ),
            indexes: [
              ...config.indexes
                .map((i) => i.config.name!)
                .filter((name) => trgm.length > 0 || !name.endsWith('_trgm_idx')),
              ...config.primaryKeys.map((k) => k.getName()),
            ].sort(),
          };
          const { rows: columns } = await pool.query(
            `select column_name, data_type, is_nullable from information_schema.columns
           where table_schema = current_schema() and table_name = $1 order by ordinal_position`,
            [config.name],
          );
          const { rows: indexes } = await pool.query(
            `select indexname from pg_indexes where schemaname = current_schema() and tablename = $1`,
            [config.name],
          );
          const live: Shape = {
            columns: columns.map((c) => `${c.column_name} ${c.data_type}${c.is_nullable === 'NO' ? ' not null' : ''}`),
            // A one-column primary key is the column's own (`primary`), not a named constraint of the schema.
            indexes: indexes
              .map((i) => i.indexname as string)
              .filter((name) => !name.endsWith('_pkey') || config.primaryKeys.some((k) => k.getName() === name))
              .sort(),
          };
          expect(live, config.name).toStrictEqual(expected);
        }
      } finally {
        await pool.end();
      }
    },
  );

  runStorageConformance('drizzle (node-postgres, generated schema)', async () => {
    const pool = await pg.pool();
    const adapter = createDrizzleAdapter(pgDrizzle(pool), { schema: await load('postgres') });
    return { adapter, teardown: () => pool.end() };
  });
});
