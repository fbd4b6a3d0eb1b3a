/**
 * The kit's tables as data: the one description that both the Drizzle tables the adapter builds at run time
 * (tables.ts) and the schema file `generateDrizzleSchema` prints (generate.ts) are made from. It mirrors what the
 * SQL migrations create (sql/migrations.ts), column for column and index for index; a test checks a migrated
 * database against it.
 * @module
 * @internal
 */
import { staticDefault, type UserField } from '../../user-fields/definitions.js';
import { uniqueIndexName } from '../../user-fields/sql.js';
import { searchIndexes } from '../sql/user-search.js';
import { tableNames, type TableNames } from '../sql/tables.js';

/** The dialects the Drizzle adapter supports. */
export type DrizzleDialect = 'sqlite' | 'postgres';

/**
 * How a column is stored: text, a 64-bit integer (millisecond times, counters), a boolean, or a double (custom
 * `number` fields).
 */
export type ColumnKind = 'text' | 'int64' | 'bool' | 'float';

export interface ColumnSpec {
  /** The column's name in the database (snake_case). */
  name: string;
  kind: ColumnKind;
  notNull?: true;
  primaryKey?: true;
  /** References `users.id`, deleting with the user. */
  referencesUser?: true;
  /** A constant default. */
  default?: number | string | boolean;
}

/** An index term: a column, or `lower(column)`, with an operator class on PostgreSQL. */
export interface IndexTerm {
  column: string;
  lower?: true;
  /** PostgreSQL operator class, e.g. `text_pattern_ops`. */
  op?: 'text_pattern_ops' | 'gin_trgm_ops';
}

export interface IndexSpec {
  name: string;
  terms: IndexTerm[];
  unique?: true;
  /** PostgreSQL index method; b-tree when absent. */
  using?: 'gin';
  /** Only on these dialects; every dialect when absent. */
  only?: DrizzleDialect;
  /** A note printed above the index in the generated file. */
  note?: string;
}

export interface TableSpec {
  /** The export name in the generated file and the key of `schema` (e.g. `authUsers`). */
  key: SchemaKey;
  /** The table's name, prefix included. */
  name: string;
  columns: ColumnSpec[];
  /** A named composite primary key. */
  primaryKey?: { name: string; columns: string[] };
  indexes: IndexSpec[];
}

/** The keys of a Drizzle auth schema: the export names of the generated file. */
export const SCHEMA_KEYS = [
  'authUsers',
  'authAccounts',
  'authSessions',
  'authVerificationTokens',
  'authAuthenticators',
] as const;
export type SchemaKey = (typeof SCHEMA_KEYS)[number];

const text = (name: string, extra: Partial<ColumnSpec> = {}): ColumnSpec => ({ name, kind: 'text', ...extra });
const int64 = (name: string, extra: Partial<ColumnSpec> = {}): ColumnSpec => ({ name, kind: 'int64', ...extra });
const userId: ColumnSpec = { name: 'user_id', kind: 'text', notNull: true, referencesUser: true };
const TRIGRAM_NOTE =
  'Needs the pg_trgm extension (migration 0006 creates it where the role may): without it, drop these two and search matches by prefix.';

const FIELD_KINDS = { string: 'text', 'string[]': 'text', number: 'float', boolean: 'bool', date: 'int64' } as const;

/**
 * The column of a custom user field as `migrate()` adds it (sql.ts `addFieldColumn`): its kind, and its static
 * default so rows already there read it.
 */
function fieldColumn(field: UserField): ColumnSpec {
  const fallback = staticDefault(field);
  return {
    name: field.column,
    kind: FIELD_KINDS[field.type],
    ...(fallback === undefined ? {} : { default: fallback }),
  };
}

/**
 * The kit's tables for `prefix` (default `auth_`), in creation order (users first: the others reference it); the
 * users table holds a column for each custom user field (and a unique index for each `unique` one).
 */
export function tableSpecs(prefix?: string, fields: readonly UserField[] = []): TableSpec[] {
  const t: TableNames = tableNames(prefix);
  const search = searchIndexes(t);
  const fieldIndexes = fields
    .filter((field) => field.unique)
    .map((field): IndexSpec => ({
      name: uniqueIndexName(t.users, field),
      terms: [{ column: field.column }],
      unique: true,
    }));
  return [
    {
      key: 'authUsers',
      name: t.users,
      columns: [
        text('id', { primaryKey: true }),
        text('email'),
        text('email_normalized'),
        text('name'),
        text('image'),
        int64('email_verified'),
        text('role'),
        text('roles'),
        int64('session_version', { notNull: true, default: 0 }),
        ...fields.map(fieldColumn),
      ],
      indexes: [
        { name: `${t.users}_email_normalized_key`, terms: [{ column: 'email_normalized' }], unique: true },
        { name: search.namePrefix, terms: [{ column: 'name', lower: true }], only: 'sqlite' },
        { name: search.emailPrefix, terms: [{ column: 'email_normalized', op: 'text_pattern_ops' }], only: 'postgres' },
        { name: search.namePrefix, terms: [{ column: 'name', lower: true, op: 'text_pattern_ops' }], only: 'postgres' },
        {
          name: search.emailTrigram,
          terms: [{ column: 'email_normalized', op: 'gin_trgm_ops' }],
          using: 'gin',
          only: 'postgres',
          note: TRIGRAM_NOTE,
        },
        {
          name: search.nameTrigram,
          terms: [{ column: 'name', lower: true, op: 'gin_trgm_ops' }],
          using: 'gin',
          only: 'postgres',
        },
        ...fieldIndexes,
      ],
    },
    {
      key: 'authAccounts',
      name: t.accounts,
      columns: [
        text('provider', { notNull: true }),
        text('provider_account_id', { notNull: true }),
        userId,
        text('type', { notNull: true }),
        text('access_token'),
        text('refresh_token'),
        int64('expires_at'),
        text('token_type'),
        text('scope'),
        text('id_token'),
        text('password_hash'),
      ],
      primaryKey: { name: `${t.accounts}_pkey`, columns: ['provider', 'provider_account_id'] },
      indexes: [{ name: `${t.accounts}_user_id_idx`, terms: [{ column: 'user_id' }] }],
    },
    {
      key: 'authSessions',
      name: t.sessions,
      columns: [
        text('id', { primaryKey: true }),
        text('token_hash', { notNull: true }),
        userId,
        int64('expires', { notNull: true }),
        int64('created_at', { notNull: true }),
        text('user_agent'),
        text('ip'),
        int64('last_active_at'),
        text('impersonated_by'),
      ],
      indexes: [
        { name: `${t.sessions}_user_id_idx`, terms: [{ column: 'user_id' }] },
        { name: `${t.sessions}_expires_idx`, terms: [{ column: 'expires' }] },
      ],
    },
    {
      key: 'authVerificationTokens',
      name: t.verificationTokens,
      columns: [
        text('identifier', { notNull: true }),
        text('token_hash', { notNull: true }),
        int64('expires', { notNull: true }),
      ],
      primaryKey: { name: `${t.verificationTokens}_pkey`, columns: ['identifier', 'token_hash'] },
      indexes: [{ name: `${t.verificationTokens}_expires_idx`, terms: [{ column: 'expires' }] }],
    },
    {
      key: 'authAuthenticators',
      name: t.authenticators,
      columns: [
        text('credential_id', { primaryKey: true }),
        userId,
        text('public_key', { notNull: true }),
        int64('counter', { notNull: true }),
        text('transports', { notNull: true }),
        text('device_type', { notNull: true }),
        { name: 'backed_up', kind: 'bool', notNull: true },
        text('name'),
        int64('created_at', { notNull: true }),
      ],
      indexes: [{ name: `${t.authenticators}_user_id_idx`, terms: [{ column: 'user_id' }] }],
    },
  ];
}

/** The property name of a column in a Drizzle table: its name in camelCase (`email_normalized` → `emailNormalized`). */
export const propertyOf = (column: string): string =>
  column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** The indexes of `table` that exist on `dialect`. */
export const indexesOn = (table: TableSpec, dialect: DrizzleDialect): IndexSpec[] =>
  table.indexes.filter((index) => index.only === undefined || index.only === dialect);
