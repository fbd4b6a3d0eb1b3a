/**
 * MySQL/MariaDB isolation for storage tests: `mysql2` pools bound to fresh, empty databases named
 * `<prefix>_<random>`, all dropped with `dropAll()` after the file. Uses the real server (`MYSQL_URL`); when it
 * is down the tests skip, or fail under CI=true (see services.ts).
 */
import { randomBytes } from 'node:crypto';
import { Kysely, MysqlDialect, sql, type MysqlPool } from 'kysely';
import { MYSQL_URL, serviceAvailable } from './services.js';

/** One fresh database. */
export interface MysqlDatabase {
  database: string;
  /** `MYSQL_URL` with this database. */
  url: string;
  pool: MysqlPool;
  /** A Kysely over `pool`. */
  db: Kysely<any>;
  /** Closes `db` (and `pool`) and drops the database. */
  drop(): Promise<void>;
}

export interface MysqlDatabases {
  /** Whether the server and `mysql2` are there (use with `describe.skipIf(!available)`). */
  available: boolean;
  /** A new, empty database, and a `mysql2` pool (callback style, for Kysely) connected to it. */
  isolated(): Promise<MysqlDatabase>;
  /** Closes every pool made here, drops every database made here. */
  dropAll(): Promise<void>;
}

/** @param prefix Names the databases, e.g. `auth_test`. */
export async function mysqlDatabases(prefix: string): Promise<MysqlDatabases> {
  const up = await serviceAvailable('mysql');
  const mysql = up ? await import('mysql2') : undefined;
  const open = (url: string) => {
    const pool = mysql!.createPool({ uri: url, charset: 'utf8mb4', connectionLimit: 4 }) as unknown as MysqlPool;
    return { pool, db: new Kysely<any>({ dialect: new MysqlDialect({ pool }) }) };
  };
  let admin: Kysely<any> | undefined;
  const made: string[] = [];
  const dbs: Kysely<any>[] = [];
  return {
    available: mysql !== undefined,
    async isolated() {
      admin ??= open(MYSQL_URL).db;
      const database = `${prefix}_${randomBytes(6).toString('hex')}`;
      made.push(database);
      await sql`create database ${sql.id(database)} character set utf8mb4 collate utf8mb4_bin`.execute(admin);
      const url = new URL(MYSQL_URL);
      url.pathname = `/${database}`;
      const { pool, db } = open(url.href);
      dbs.push(db);
      const drop = async () => {
        const at = dbs.indexOf(db);
        if (at >= 0) dbs.splice(at, 1);
        await db.destroy();
        await sql`drop database if exists ${sql.id(database)}`.execute(admin!);
        made.splice(made.indexOf(database), 1);
      };
      return { database, url: url.href, pool, db, drop };
    },
    async dropAll() {
      await Promise.all(dbs.splice(0).map((db) => db.destroy()));
      if (!admin) return;
      for (const database of made.splice(0)) await sql`drop database if exists ${sql.id(database)}`.execute(admin);
      await admin.destroy();
      admin = undefined;
    },
  };
}
