import type { LogEntry } from '../types.js';

/** Receives runtime log entries. */
export type LogListener = (entry: LogEntry) => void;

/** Fans log entries out to listeners; a throwing listener never breaks the runtime. */
export class Logger {
  private readonly listeners = new Set<LogListener>();

  /** Adds a listener; returns a function that removes it. */
  subscribe(listener: LogListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  log(entry: Omit<LogEntry, 'timestamp'>): LogEntry {
    const full: LogEntry = { ...entry, timestamp: new Date() };
    for (const listener of this.listeners) {
      try {
        listener(full);
      } catch {
        // A listener's failure must not affect triggers.
      }
    }
    return full;
  }

  /** A log function that tags entries with `base` and also collects them into `sink`. */
  scoped(base: Pick<LogEntry, 'trigger' | 'traceId'>, sink: LogEntry[]): (entry: Omit<LogEntry, 'timestamp'>) => void {
    return (entry) => {
      sink.push(this.log({ ...base, ...entry }));
    };
  }
}
