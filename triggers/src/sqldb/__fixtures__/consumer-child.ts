/**
 * A runtime consuming a PostgreSQL outbox in its own process, for the
 * multi-process lease tests. Configured by the JSON in CHILD_CONFIG
 * (`{databaseUrl, schema, handlerDelayMs, lease}`); prints `{"pk"}` per
 * handled change and `{"ready": true}` once started.
 */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { defineTrigger } from '../../define.js';
import { createTriggerRuntime } from '../../runtime/create.js';

const config = JSON.parse(process.env.CHILD_CONFIG ?? '{}') as {
  databaseUrl: string;
  schema: string;
  handlerDelayMs: number;
  lease: `${number}ms`;
};
const print = (line: unknown) => process.stdout.write(`${JSON.stringify(line)}\n`);
const pool = new pg.Pool({ connectionString: config.databaseUrl, options: `-c search_path=${config.schema}`, max: 4 });
const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });

const runtime = createTriggerRuntime({
  env: {},
  databases: { main: db },
  changes: { pollInterval: '20ms', batchSize: 20, lease: config.lease },
  triggers: {
    rows: defineTrigger({
      source: { type: 'sqldb', database: 'main' },
      config: { observability: { metrics: false, tracing: false } },
      handle: async (event) => {
        await new Promise((resolve) => setTimeout(resolve, config.handlerDelayMs));
        print({ pk: event.primaryKey });
      },
    }),
  },
});
await runtime.start();
print({ ready: true });
process.on('SIGTERM', () => {
  void runtime.stop({ timeout: '2s' }).finally(() => process.exit(0));
});
