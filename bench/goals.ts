/**
 * The goals `npm run bench` prints beside its rows (issue 39), and their verdicts. A goal is an upper bound
 * (`max`: CPU µs, ratios of time) or a lower bound (`min`: ratios of requests/s).
 */
export interface Goal {
  bound: 'max' | 'min';
  value: number;
  unit: string;
}

export const atMost = (value: number, unit: string): Goal => ({ bound: 'max', value, unit });
export const atLeast = (value: number, unit: string): Goal => ({ bound: 'min', value, unit });

/** `≤ 2 µs`, `≥ 15×`. */
export const goalText = (goal: Goal): string => `${goal.bound === 'max' ? '≤' : '≥'} ${goal.value}${goal.unit}`;

/** `met` or `MISSED`; `n/a` when the figure could not be measured. */
export function verdict(measured: number | undefined, goal: Goal): 'met' | 'MISSED' | 'n/a' {
  if (measured === undefined || !Number.isFinite(measured)) return 'n/a';
  return (goal.bound === 'max' ? measured <= goal.value : measured >= goal.value) ? 'met' : 'MISSED';
}

/** Goals of the protected Hono routes: server CPU µs per request over the no-op middleware's. */
export const HONO_CPU_OVER_NOOP = {
  default: atMost(2, ' µs'),
  /** Node 20's promise hooks; on other versions the row is printed without a goal. */
  scoped: atMost(6, ' µs'),
  database: atMost(8, ' µs'),
} as const;

/** The SQLite route's requests/s over better-auth's getSession middleware on the same Hono app. */
export const SQLITE_OVER_BETTER_AUTH = atLeast(15, '×');

/** PostgreSQL: our session read over a raw `pg` prepared select of the same row (median µs ratio). */
export const POSTGRES_READ_OVER_RAW = atMost(1.1, '×');

/** Every other adapter's default protected route: server CPU µs per request over the framework's own no-op. */
export const ADAPTER_DEFAULT_OVER_NOOP = atMost(2, ' µs');
