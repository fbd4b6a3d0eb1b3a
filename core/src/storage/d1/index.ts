/**
 * `@framework/auth/d1`: the D1 storage adapter and its Kysely dialect (`D1Dialect`, for your own Kysely over a D1
 * binding). `createD1Adapter` is in the index too; the dialect is only here, as it loads Kysely.
 * @module
 */
export { createD1Adapter, type D1AdapterOptions } from './adapter.js';
export { D1Dialect } from './dialect.js';
export type { D1DatabaseLike, D1ResultLike, D1StatementLike, D1Value } from './binding.js';
