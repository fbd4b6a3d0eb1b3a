// Run by sqlite-checkpointer.test.ts in a fresh process: an app whose last work is closing a SQLite adapter
// (whose checkpoint worker does not keep the process alive) must still finish that close and exit with 0.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteAdapter } from '@framework/auth';

const dir = await mkdtemp(join(tmpdir(), 'auth-close-'));
const adapter = createSqliteAdapter({ filename: join(dir, 'auth.db') });
await adapter.migrate();
await adapter.close();
await rm(dir, { recursive: true, force: true });
console.log('closed');
