import type { Kysely } from 'kysely';
import { isNonRetryable } from '../errors.js';
import { messageOf, runAttempt } from '../runtime/attempt.js';
import { backoffDelay } from '../runtime/backoff.js';
import type { RuntimeCore } from '../runtime/core.js';
import type { RegisteredTrigger } from '../runtime/registry.js';
import { randomHex } from '../trace.js';
import type { SqlDbEvent, SqlDbSource, SqlOperation } from '../types.js';
import { CHANNEL, dialectOf, type ChangeDialect } from './dialect.js';
import { Outbox, type OutboxRow } from './outbox.js';

/** A connected PostgreSQL client the consumer can `LISTEN` on, such as a `pg.Client`. */
export interface PgListenClient {
  query(text: string): Promise<unknown>;
  on(event: 'notification', listener: (message: { channel: string }) => void): unknown;
  removeListener(event: 'notification', listener: (message: { channel: string }) => void): unknown;
}

/** A database binding of the runtime: a Kysely instance, or one with options. */
export type DatabaseBinding =
  | Kysely<any>
  | {
      db: Kysely<any>;
      /**
       * PostgreSQL: a dedicated connected client to `LISTEN framework_changes` on, for immediate wake-ups.
       * The caller owns it.
       */
      listen?: PgListenClient;
      /** Override the dialect detected from the Kysely adapter. */
      dialect?: ChangeDialect;
    };

/** Options of the outbox consumers (`createTriggerRuntime({changes})`). */
export interface ChangeConsumerOptions {
  /** Time between polls when the outbox is empty, in ms. Default 1000. */
  pollIntervalMs: number;
  /** Rows claimed per poll. Default 20. */
  batchSize: number;
  /** How long a claim lasts without renewal, in ms; renewed every third while rows are held. */
  leaseMs: number;
}

const sleep = (ms: number, wake: { resolve?: () => void }) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    wake.resolve = () => {
      clearTimeout(timer);
      resolve();
    };
  });

const parse = (text: string | null): any => (text === null ? null : JSON.parse(text));

/**
 * Delivers the outbox of one database binding to its sqldb triggers: claims
 * rows in id order, runs each matching trigger once per claim (with the row's
 * attempt number), deletes the row when every trigger succeeded, otherwise
 * retries it after the failing triggers' `retryDelay` (skipping triggers that
 * already succeeded) until their `retries` are spent, then marks it failed.
 */
export class ChangeConsumer {
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly wake: { resolve?: () => void } = {};
  private readonly outbox: Outbox;
  private readonly listen: PgListenClient | undefined;
  private readonly token = `${process.pid}-${randomHex(6)}`;
  private readonly onNotification = (message: { channel: string }) => {
    if (message.channel === CHANNEL) this.wake.resolve?.();
  };

  constructor(
    private readonly core: RuntimeCore,
    private readonly database: string,
    binding: DatabaseBinding,
    private readonly triggers: RegisteredTrigger[],
    private readonly options: ChangeConsumerOptions,
  ) {
    const db = 'db' in binding && !('selectFrom' in binding) ? binding.db : (binding as Kysely<any>);
    const given = 'db' in binding && !('selectFrom' in binding) ? binding : undefined;
    this.outbox = new Outbox(db, dialectOf(db, given?.dialect));
    this.listen = given?.listen;
  }

  async start(): Promise<void> {
    this.running = true;
    if (this.listen) {
      this.listen.on('notification', this.onNotification);
      await this.listen.query(`LISTEN ${CHANNEL}`);
    }
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake.resolve?.();
    await this.loop;
    if (this.listen) {
      this.listen.removeListener('notification', this.onNotification);
      await this.listen.query(`UNLISTEN ${CHANNEL}`).catch(() => {});
    }
  }

  /** Tables to claim, or `undefined` when some trigger takes every table. */
  private tables(): string[] | undefined {
    const lists = this.triggers.map((t) => (t.definition.source as SqlDbSource).tables);
    return lists.some((l) => l === undefined) ? undefined : [...new Set(lists.flatMap((l) => l ?? []))];
  }

  private async run(): Promise<void> {
    const { leaseMs } = this.options;
    while (this.running) {
      let claimed = 0;
      try {
        const rows = await this.outbox.claim(this.token, this.options.batchSize, leaseMs, this.tables());
        claimed = rows.length;
        const held = new Set(rows);
        const heartbeat = this.heartbeat(held, leaseMs);
        try {
          for (const row of rows) {
            await this.core.tracker.track(this.deliver(row));
            held.delete(row);
          }
        } finally {
          clearInterval(heartbeat);
        }
      } catch (error) {
        this.core.logger.log({
          level: 'error',
          message: `sqldb "${this.database}": outbox poll failed: ${messageOf(error)}`,
          error,
        });
      }
      if (claimed === 0 && this.running) await sleep(this.options.pollIntervalMs, this.wake);
    }
  }

  /** Renews the lease of the rows still `held` every third of the lease, until cleared. */
  private heartbeat(held: Set<OutboxRow>, leaseMs: number): ReturnType<typeof setInterval> {
    return setInterval(
      () => {
        if (held.size === 0) return;
        const ids = [...held].map((row) => row.id);
        this.outbox.renew(this.token, ids, Date.now() + leaseMs).catch((error: unknown) => {
          this.core.logger.log({
            level: 'warn',
            message: `sqldb "${this.database}": could not renew the lease of ${ids.length} change(s): ${messageOf(error)}`,
            error,
          });
        });
      },
      Math.max(10, Math.floor(leaseMs / 3)),
    );
  }

  private async deliver(row: OutboxRow): Promise<void> {
    const operation = row.operation as SqlOperation;
    const delivered = parse(row.delivered) as string[];
    const targets = this.triggers.filter((t) => {
      const source = t.definition.source as SqlDbSource;
      return (
        !delivered.includes(t.name) &&
        (!source.tables || source.tables.includes(row.table_name)) &&
        (!source.operations || source.operations.includes(operation))
      );
    });
    const attempt = row.attempts + 1;
    const event: SqlDbEvent = {
      database: this.database,
      table: row.table_name,
      operation,
      newRow: parse(row.new_row),
      oldRow: parse(row.old_row),
      primaryKey: parse(row.primary_key),
    };
    const results = await Promise.all(
      targets.map(async (t) => ({ trigger: t, result: await runAttempt(this.core, t, event, { attempt }) })),
    );
    const failures = results.filter((r) => !r.result.ok);
    delivered.push(...results.filter((r) => r.result.ok).map((r) => r.trigger.name));
    if (failures.length === 0) {
      await this.outbox.remove(row, this.token);
      return;
    }
    const error = failures.map((f) => `${f.trigger.name}: ${messageOf(f.result.error)}`).join('; ');
    const final = failures.some(
      (f) =>
        f.result.noRetry ||
        isNonRetryable(f.result.error) ||
        attempt > f.trigger.definition.config.retries ||
        this.core.stopSignal.aborted,
    );
    if (final) {
      await this.outbox.fail(row, this.token, { attempts: attempt, delivered, error });
      this.core.logger.log({
        level: 'error',
        message: `sqldb "${this.database}": change ${row.id} (${operation} ${row.table_name}) failed for good after ${attempt} attempt(s) (${error}); kept in framework_changes with failed_at`,
        data: { database: this.database, changeId: row.id, attempts: attempt },
      });
      return;
    }
    const delay = Math.max(...failures.map((f) => backoffDelay(f.trigger.definition.config.backoff, attempt)));
    await this.outbox.retry(row, this.token, { attempts: attempt, availableAt: Date.now() + delay, delivered, error });
  }
}
