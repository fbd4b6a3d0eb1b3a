import type { LogEntry, RunRecord } from '@framework/trigger';

/**
 * The newest `capacity` runs, kept as columns (numbers in typed arrays, the
 * constant strings by reference) rather than as the records themselves: a
 * busy runtime then leaves far fewer short-lived objects for the garbage
 * collector to promote. Records are rebuilt when read.
 * @internal
 */
export class RunRing {
  private size = 0;
  private next = 0;
  private readonly ids: string[];
  private readonly triggers: string[];
  private readonly sources: RunRecord['source'][];
  private readonly statuses: RunRecord['status'][];
  private readonly traceIds: string[];
  private readonly errors: Array<string | undefined>;
  private readonly logs: Array<LogEntry[] | undefined>;
  private readonly stepsIds: Array<string | undefined>;
  private readonly attempts: Float64Array;
  private readonly started: Float64Array;
  private readonly durations: Float64Array;

  constructor(
    readonly capacity: number,
    private readonly maxLogs: number,
  ) {
    this.ids = new Array<string>(capacity).fill('');
    this.triggers = new Array<string>(capacity).fill('');
    this.sources = new Array<RunRecord['source']>(capacity).fill('queue');
    this.statuses = new Array<RunRecord['status']>(capacity).fill('ok');
    this.traceIds = new Array<string>(capacity).fill('');
    this.errors = new Array<string | undefined>(capacity).fill(undefined);
    this.logs = new Array<LogEntry[] | undefined>(capacity).fill(undefined);
    this.stepsIds = new Array<string | undefined>(capacity).fill(undefined);
    this.attempts = new Float64Array(capacity);
    this.started = new Float64Array(capacity);
    this.durations = new Float64Array(capacity);
  }

  push(run: RunRecord): void {
    const i = this.next;
    this.ids[i] = run.id;
    this.triggers[i] = run.trigger;
    this.sources[i] = run.source;
    this.statuses[i] = run.status;
    this.traceIds[i] = run.traceId;
    this.errors[i] = run.error;
    this.logs[i] =
      run.logs.length === 0 ? undefined : run.logs.length > this.maxLogs ? run.logs.slice(-this.maxLogs) : run.logs;
    this.stepsIds[i] = run.stepsId;
    this.attempts[i] = run.attempt;
    this.started[i] = run.startedAt.getTime();
    this.durations[i] = run.durationMs;
    this.next = (i + 1) % this.capacity;
    if (this.size < this.capacity) this.size++;
  }

  /** Slot indexes, newest first. */
  private *slots(): Generator<number> {
    for (let k = 1; k <= this.size; k++) yield (this.next - k + this.capacity) % this.capacity;
  }

  private record(i: number): RunRecord {
    const error = this.errors[i];
    const stepsId = this.stepsIds[i];
    return {
      id: this.ids[i]!,
      trigger: this.triggers[i]!,
      source: this.sources[i]!,
      attempt: this.attempts[i]!,
      traceId: this.traceIds[i]!,
      status: this.statuses[i]!,
      startedAt: new Date(this.started[i]!),
      durationMs: this.durations[i]!,
      ...(error === undefined ? {} : { error }),
      logs: this.logs[i] ?? [],
      ...(stepsId === undefined ? {} : { stepsId }),
    };
  }

  /** Newest first, at most `limit`, optionally of one trigger. */
  recent(limit: number, trigger?: string): RunRecord[] {
    const out: RunRecord[] = [];
    for (const i of this.slots()) {
      if (out.length >= limit) break;
      if (trigger === undefined || this.triggers[i] === trigger) out.push(this.record(i));
    }
    return out;
  }

  get(id: string): RunRecord | undefined {
    for (const i of this.slots()) if (this.ids[i] === id) return this.record(i);
    return undefined;
  }
}
