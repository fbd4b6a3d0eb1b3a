/**
 * PostgreSQL isolation for storage tests: Kysely instances bound to fresh,
 * empty schemas (their `search_path` is that schema only), all dropped with
 * `dropAll()` after the file. Uses the real server (`DATABASE_URL`); when it
 * is down the tests skip, or fail under CI=true (see `services.ts`).
 */
import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { DATABASE_URL, serviceAvailable } from './services.js';

export interface PostgresSchemas {
  /** Whether PostgreSQL and `pg` are there (use with `describe.skipIf(!available)`). */
  available: boolean;
  /** A Kysely bound to a new, empty schema named `<prefix>_<random>`. */
  isolated(): Promise<Kysely<any>>;
  /** A second Kysely (its own pool) on the schema of `db`, as another process would connect. */
  sameSchema(db: Kysely<any>): Kysely<any>;
  /** Drops every schema made here and closes the admin connection. */
  dropAll(): Promise<void>;
}

/**
 * @example
 * ```ts
 * const pg = await postgresSchemas('api_keys_test');
 * describe.skipIf(!pg.available)('on PostgreSQL', () => {
 *   afterAll(() => pg.dropAll());
 *   it('…', async () => { const db = await pg.isolated(); … });
 * });
 * ```
 */
export async function postgresSchemas(prefix: string, options: { poolSize?: number } = {}): Promise<PostgresSchemas> {
  const up = await serviceAvailable('postgres');
  const pg = up ? (await import('pg')).default : undefined;
  const connect = (schema?: string) =>
    new Kysely<any>({
      dialect: new PostgresDialect({
        pool: new pg!.Pool({
          connectionString: DATABASE_URL,
          max: options.poolSize ?? 2,
          ...(schema ? { options: `-c search_path=${schema}` } : {}),
        }),
      }),
    });
  let admin: Kysely<any> | undefined;
  const schemas: string[] = [];
  const schemaOf = new WeakMap<Kysely<any>, string>();
  return {
    available: pg !== undefined,
    async isolated() {
      admin ??= connect();
      const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
      schemas.push(schema);
      await sql`create schema ${sql.id(schema)}`.execute(admin);
      const db = connect(schema);
      schemaOf.set(db, schema);
      return db;
    },
    sameSchema(db) {
      const schema = schemaOf.get(db);
      if (!schema) throw new Error('sameSchema: this Kysely was not made by isolated()');
      return connect(schema);
    },
    async dropAll() {
      if (!admin) return;
      for (const schema of schemas.splice(0)) await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin);
      await admin.destroy();
      admin = undefined;
    },
  };
}
