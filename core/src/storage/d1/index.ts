/**
 * The D1 storage adapter and its Kysely dialect.
 * @module
 */
export { createD1Adapter, type D1AdapterOptions } from './adapter.js';
export { D1Dialect } from './dialect.js';
export type { D1DatabaseLike, D1ResultLike, D1StatementLike, D1Value } from './binding.js';
