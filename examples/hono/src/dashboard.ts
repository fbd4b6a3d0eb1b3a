/**
 * The dashboard in the example: `@framework/dashboard` at `/_framework`
 * (loopback clients in development; a signed-in admin in production, where
 * it is off unless `DASHBOARD=1`), and a demo queue trigger whose
 * dead letters can be replayed from it.
 *
 * `monthly-report` consumes the `reports` queue. Its renderer (a stand-in for
 * a slow downstream service) times out the first time it sees a report id
 * and succeeds afterwards; with `retries: 0` that first failure goes straight
 * to the dead-letter queue `reports.dead`, and a replay from the dashboard
 * succeeds.
 */
import { defineTrigger, type TriggerContext, type TriggerDefinition } from '@framework/trigger';

/** The renderer stand-in: fails once per report id. */
export interface ReportRenderer {
  render(id: string): Promise<void>;
  /** Ids rendered successfully, in order. */
  readonly rendered: readonly string[];
}

export function createReportRenderer(): ReportRenderer {
  const seen = new Set<string>();
  const rendered: string[] = [];
  return {
    rendered,
    async render(id) {
      if (!seen.has(id)) {
        seen.add(id);
        throw new Error(`report renderer timed out on ${id} (simulated; a replay succeeds)`);
      }
      rendered.push(id);
    },
  };
}

const monthlyReport = defineTrigger({
  source: { type: 'queue', name: 'reports', batchSize: 1, batchTimeout: '0s', deadLetterQueue: 'reports.dead' },
  config: { retries: 0 },
  handle: async (event, ctx: TriggerContext<{ reports: ReportRenderer }>) => {
    for (const message of event.messages) {
      const { id } = message.body as { id: string };
      await ctx.env.reports.render(id);
    }
  },
});

/** The demo's triggers and env for `createExampleRuntime(…, more)`. */
export function dashboardDemo(reports: ReportRenderer = createReportRenderer()): {
  triggers: Record<string, TriggerDefinition<any, any>>;
  env: { reports: ReportRenderer };
} {
  return { triggers: { 'monthly-report': monthlyReport }, env: { reports } };
}

/** Whether the dashboard answers: `option` when given, else `DASHBOARD=1` or `NODE_ENV` not `production`. */
export function dashboardEnabled(option: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  return option ?? (env.DASHBOARD === '1' || env.NODE_ENV !== 'production');
}
