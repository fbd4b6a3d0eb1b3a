/**
 * Median µs per `auth.getSession(request)` for a signed-in user, per session
 * strategy, in whichever runtime runs this.
 * @module
 */
import { signedOutFixture } from '../scenarios/client.js';

/** The strategies measured: jwt, and database sessions over memory storage. */
export const STRATEGIES = ['jwt', 'database'] as const;

/**
 * Median µs of one session read.
 * @example
 * ```ts
 * const micros = await sessionReadMicros('jwt');
 * ```
 */
export async function sessionReadMicros(
  strategy: (typeof STRATEGIES)[number],
  batches = 30,
  perBatch = 200,
): Promise<number> {
  const fixture = await signedOutFixture(strategy);
  const client = fixture.client();
  await client.signIn();
  const request = new Request('http://app.test/', { headers: { cookie: client.cookieHeader() } });
  if (!(await fixture.auth.getSession(request)).user)
    throw new Error(`bench: the ${strategy} session did not read back`);
  for (let i = 0; i < 2000; i++) await fixture.auth.getSession(request);
  const samples: number[] = [];
  for (let b = 0; b < batches; b++) {
    const started = performance.now();
    for (let i = 0; i < perBatch; i++) await fixture.auth.getSession(request);
    samples.push(((performance.now() - started) * 1000) / perBatch);
  }
  samples.sort((a, b) => a - b);
  return Math.round(samples[Math.floor(samples.length / 2)]! * 100) / 100;
}

/** Every strategy, keyed `jwt` and `database`. */
export async function sessionReadAll(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const strategy of STRATEGIES) out[strategy] = await sessionReadMicros(strategy);
  return out;
}
