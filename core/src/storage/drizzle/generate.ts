/**
 * `generateDrizzleSchema`: the kit's tables as a Drizzle schema file (TypeScript source), for apps that query
 * them with Drizzle, declare relations to them, or keep them in their drizzle-kit schema.
 * @module
 */
import { resolveUserFields } from '../../user-fields/definitions.js';
import type { UserOptions } from '../../user-fields/types.js';
import * as kit from './spec.js';

/** Options of {@link generateDrizzleSchema}. */
export interface GenerateDrizzleSchemaOptions {
  /** `'sqlite'` (`drizzle-orm/sqlite-core`) or `'postgres'` (`drizzle-orm/pg-core`). */
  dialect: kit.DrizzleDialect;
  /** Prefix of every table name, as given to the adapter. Default `'auth_'`. */
  tablePrefix?: string;
  /**
   * The app's `createAuth({ user })`: each of `additionalFields` adds its column to `authUsers` (`text` for
   * strings and `string[]` as JSON, a double for numbers, a boolean, integer milliseconds for dates, with the
   * static default) and a unique index for a `unique` field, as `adapter.migrate()` adds them. Default none.
   */
  user?: UserOptions;
}

/** A constant default as source: a number, a boolean or a single-quoted string. */
const literal = (value: number | string | boolean): string =>
  typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : String(value);

/** The column builder of a kind, e.g. `doublePrecision('seats')`. */
function builderSource(kind: kit.ColumnKind, name: string, dialect: kit.DrizzleDialect): string {
  const sqlite = dialect === 'sqlite';
  switch (kind) {
    case 'text':
      return `text(${name})`;
    case 'int64':
      return sqlite ? `integer(${name})` : `bigint(${name}, { mode: 'number' })`;
    case 'float':
      return sqlite ? `real(${name})` : `doublePrecision(${name})`;
    case 'bool':
      return sqlite ? `integer(${name}, { mode: 'boolean' })` : `boolean(${name})`;
  }
}

/** The Drizzle column builder call for `column`, e.g. `bigint('expires', { mode: 'number' }).notNull()`. */
function columnSource(column: kit.ColumnSpec, dialect: kit.DrizzleDialect, users: string): string {
  let source = builderSource(column.kind, `'${column.name}'`, dialect);
  if (column.notNull) source += '.notNull()';
  if (column.primaryKey) source += '.primaryKey()';
  if (column.default !== undefined) source += `.default(${literal(column.default)})`;
  if (column.referencesUser) source += `.references(() => ${users}.id, { onDelete: 'cascade' })`;
  return source;
}

/** An index term as source: `t.userId`, `t.emailNormalized.op('text_pattern_ops')`, sql`lower(${t.name})`. */
function termSource(term: kit.IndexTerm): string {
  const column = `t.${kit.propertyOf(term.column)}`;
  if (term.lower) return `sql\`lower(\${${column}})${term.op ? ` ${term.op}` : ''}\``;
  return term.op ? `${column}.op('${term.op}')` : column;
}

function tableSource(spec: kit.TableSpec, dialect: kit.DrizzleDialect, users: string): string {
  const lines = [
    `export const ${spec.key} = ${dialect === 'sqlite' ? 'sqliteTable' : 'pgTable'}(`,
    `  '${spec.name}',`,
    '  {',
  ];
  for (const column of spec.columns)
    lines.push(`    ${kit.propertyOf(column.name)}: ${columnSource(column, dialect, users)},`);
  lines.push('  },');
  const extras: string[] = [];
  if (spec.primaryKey) {
    const columns = spec.primaryKey.columns.map((c) => `t.${kit.propertyOf(c)}`).join(', ');
    extras.push(`primaryKey({ name: '${spec.primaryKey.name}', columns: [${columns}] }),`);
  }
  for (const index of kit.indexesOn(spec, dialect)) {
    if (index.note) extras.push(`// ${index.note}`);
    const terms = index.terms.map(termSource).join(', ');
    const on = index.using ? `.using('${index.using}', ${terms})` : `.on(${terms})`;
    extras.push(`${index.unique ? 'uniqueIndex' : 'index'}('${index.name}')${on},`);
  }
  if (extras.length > 0) lines.push('  (t) => [', ...extras.map((line) => `    ${line}`), '  ],');
  lines.push(');');
  return lines.join('\n');
}

/**
 * Prints the kit's tables as a Drizzle schema module: `authUsers`, `authAccounts`, `authSessions`,
 * `authVerificationTokens` and `authAuthenticators`, with the columns, keys, foreign keys and indexes that the
 * kit's migrations create (`adapter.migrate()`), times as integer milliseconds (`bigint` with `mode: 'number'`
 * on PostgreSQL), `roles` and `transports` as JSON text. Pass the module to
 * `createDrizzleAdapter(db, { schema })`. With `user.additionalFields`, `authUsers` holds their columns too. The kit still creates and upgrades the tables itself, so exclude them
 * from drizzle-kit's migrations (e.g. `tablesFilter: ['!auth_*']`) or keep them in step by hand.
 *
 * The output is deterministic and formatted (two-space indentation, single quotes).
 *
 * @throws TypeError for an unknown dialect or a malformed `tablePrefix`; AuthConfigError (`INVALID_CONFIG`) for
 *   a malformed `user.additionalFields`, as `createAuth` would.
 * @example
 * ```ts
 * import { writeFile } from 'node:fs/promises';
 * import { generateDrizzleSchema } from '@framework/auth/drizzle';
 *
 * await writeFile('src/db/auth-schema.ts', generateDrizzleSchema({ dialect: 'postgres' }));
 * ```
 */
export function generateDrizzleSchema(options: GenerateDrizzleSchemaOptions): string {
  const { dialect } = options;
  if (dialect !== 'sqlite' && dialect !== 'postgres')
    throw new TypeError(
      `generateDrizzleSchema: unknown dialect ${JSON.stringify(dialect)}: use 'sqlite' or 'postgres'`,
    );
  const specs = kit.tableSpecs(options.tablePrefix, resolveUserFields(options.user?.additionalFields));
  const tables = specs.map((spec) => tableSource(spec, dialect, specs[0]!.key));
  const body = tables.join('\n\n');
  const core = dialect === 'sqlite' ? 'sqlite-core' : 'pg-core';
  const builders = ['index', 'primaryKey', 'text', 'uniqueIndex', dialect === 'sqlite' ? 'sqliteTable' : 'pgTable'];
  builders.push(...(dialect === 'sqlite' ? ['integer', 'real'] : ['bigint', 'boolean', 'doublePrecision']));
  const used = builders.filter((name) => new RegExp(`\\b${name}\\(`).test(body)).sort();
  return [
    `// The tables of @framework/auth as a Drizzle schema (${dialect}), printed by generateDrizzleSchema.`,
    '// The kit creates and upgrades them (adapter.migrate()): do not change them here.',
    ...(body.includes('sql`') ? ["import { sql } from 'drizzle-orm';"] : []),
    `import { ${used.join(', ')} } from 'drizzle-orm/${core}';`,
    '',
    body,
    '',
  ].join('\n');
}
