import { timerAt, type Timer } from './engine/timers.js';
import type { TailEvent, TailFilter, TailLog, TailSource } from './types.js';

/** Batching of tail logs: deliver after `batchSize` logs or `batchTimeoutMs`, whichever comes first. */
export interface TailOptions {
  batchSize: number;
  batchTimeoutMs: number;
  /** Random source in [0, 1) for `samplingRate` filters. */
  random: () => number;
}

/** A tail consumer: trigger name and its source. */
export interface TailConsumer {
  name: string;
  source: TailSource;
}

/**
 * Collects the runtime's tail logs and delivers them in batches to the tail
 * triggers whose `workers` include the runtime's name and whose filters pass.
 */
export class TailHub {
  private buffer: TailLog[] = [];
  private timer: Timer | undefined;
  private readonly consumers: TailConsumer[];

  constructor(
    private readonly worker: string,
    consumers: TailConsumer[],
    private readonly deliver: (trigger: string, event: TailEvent) => Promise<void>,
    private readonly options: TailOptions,
  ) {
    this.consumers = consumers.filter((c) => c.source.workers.includes(worker));
  }

  /** Whether a tail trigger listens to this runtime (else a run need not build its tail log). */
  get listening(): boolean {
    return this.consumers.length > 0;
  }

  /** Queues a log for delivery; a no-op when no tail trigger listens to this runtime. */
  record(log: TailLog): void {
    if (this.consumers.length === 0) return;
    this.buffer.push(log);
    if (this.buffer.length >= this.options.batchSize) void this.flush();
    else this.timer ??= timerAt(Date.now() + this.options.batchTimeoutMs, () => void this.flush(), false);
  }

  /** Delivers the buffered logs now. */
  async flush(): Promise<void> {
    this.timer?.cancel();
    this.timer = undefined;
    const logs = this.buffer;
    this.buffer = [];
    if (logs.length === 0) return;
    await Promise.all(
      this.consumers.map((consumer) => {
        const selected = logs.filter((log) => passesFilters(log, consumer.source.filters ?? [], this.options.random));
        return selected.length === 0 ? undefined : this.deliver(consumer.name, { logs: selected, worker: this.worker });
      }),
    );
  }
}

/** `true` when `log` passes every filter (`samplingRate` keeps a random fraction). */
export function passesFilters(
  log: TailLog,
  filters: readonly TailFilter[],
  random: () => number = Math.random,
): boolean {
  return filters.every((filter) => {
    if (filter.field === 'samplingRate') return random() < Number(filter.value);
    const actual = log[filter.field];
    if (actual === undefined) return false;
    const text = String(actual);
    const expected = String(filter.value);
    switch (filter.operator ?? 'equals') {
      case 'contains':
        return text.includes(expected);
      case 'startsWith':
        return text.startsWith(expected);
      default:
        return text === expected;
    }
  });
}
