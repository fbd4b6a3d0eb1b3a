import type { EngineMessage, EngineRun, FinishedRun, MessageDisposition } from '../engine/types.js';

/** How long finished runs stay readable, and how many runs are kept at most. */
export interface LedgerOptions {
  /** Milliseconds a finished run stays readable (the engine's idempotency TTL). */
  ttlMs: number;
  /** The most runs kept; the oldest are forgotten first. Default 10,000. */
  maxEntries?: number;
}

/**
 * The in-process record of runs (stored messages) for engines that cannot report them (the memory engine):
 * what was sent, started and settled, with the handler's result; finished runs stay `ttlMs`. Also fans
 * finished runs out to listeners of this process.
 */
export class RunLedger {
  private readonly runs = new Map<string, EngineRun & { expiresAt?: number }>();
  private readonly listeners = new Set<(run: FinishedRun) => void>();
  private readonly maxEntries: number;

  constructor(private readonly options: LedgerOptions) {
    this.maxEntries = options.maxEntries ?? 10_000;
  }

  private key(queue: string, id: string): string {
    return `${queue}\u0000${id}`;
  }

  get(queue: string, id: string): EngineRun | null {
    const run = this.runs.get(this.key(queue, id));
    if (!run) return null;
    if (run.expiresAt !== undefined && run.expiresAt <= Date.now()) {
      this.runs.delete(this.key(queue, id));
      return null;
    }
    const { expiresAt: _expiresAt, ...view } = run;
    return view;
  }

  /** A message was stored (unless a run of that id is already known). */
  queued(queue: string, id: string, body: unknown, delayed: boolean): void {
    const key = this.key(queue, id);
    const known = this.runs.get(key);
    if (known && (known.expiresAt === undefined || known.expiresAt > Date.now())) return;
    this.runs.delete(key);
    this.runs.set(key, {
      id,
      queue,
      body,
      status: delayed ? 'delayed' : 'waiting',
      attempts: 0,
      createdAt: new Date(),
    });
    while (this.runs.size > this.maxEntries) this.runs.delete(this.runs.keys().next().value!);
  }

  /** A waiting message was removed (cancelled or discarded). */
  forget(queue: string, id: string): void {
    this.runs.delete(this.key(queue, id));
  }

  started(queue: string, messages: readonly EngineMessage[]): void {
    const now = new Date();
    for (const message of messages) {
      const key = this.key(queue, message.id);
      const run = this.runs.get(key) ?? {
        id: message.id,
        queue,
        body: message.body,
        status: 'active' as const,
        attempts: 0,
        createdAt: message.timestamp,
      };
      run.status = 'active';
      run.attempts = message.attempts;
      run.startedAt = now;
      this.runs.set(key, run);
    }
  }

  settled(queue: string, dispositions: readonly MessageDisposition[]): void {
    for (const disposition of dispositions) {
      const run = this.runs.get(this.key(queue, disposition.id));
      if (!run) continue;
      if (disposition.action === 'retry') {
        run.status = 'delayed';
        continue;
      }
      run.finishedAt = new Date();
      run.expiresAt = Date.now() + this.options.ttlMs;
      const finished: FinishedRun =
        disposition.action === 'ack'
          ? { id: run.id, queue, status: 'completed', result: disposition.result }
          : { id: run.id, queue, status: 'failed', error: disposition.reason };
      run.status = finished.status;
      if (finished.status === 'completed') run.result = disposition.action === 'ack' ? disposition.result : undefined;
      else run.error = finished.error!;
      this.publish(finished);
    }
  }

  /** Subscribes to runs this process finished; returns the unsubscribe function. */
  onFinished(listener: (run: FinishedRun) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private publish(run: FinishedRun): void {
    for (const listener of this.listeners) {
      try {
        listener(run);
      } catch {
        // A listener's failure must not affect runs.
      }
    }
  }
}
