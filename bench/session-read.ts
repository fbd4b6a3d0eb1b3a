/**
 * Median µs per `auth.getSession(request)`, per strategy.
 */
import { signedInAuth } from './fixtures.js';

export async function sessionReadMicros(strategy: 'jwt' | 'database', batches = 60, perBatch = 200): Promise<number> {
  const { auth, cookie } = await signedInAuth(strategy);
  const request = new Request('http://localhost/', { headers: { cookie } });
  const check = await auth.getSession(request);
  if (!check.user) throw new Error(`bench: ${strategy} session did not read back`);
  // Warm for half a second (not a count): the first section of a fresh process otherwise reads slow while the JIT
  // and the SQLite page cache settle.
  for (const until = performance.now() + 500; performance.now() < until;) await auth.getSession(request);
  const samples: number[] = [];
  for (let b = 0; b < batches; b++) {
    const t = performance.now();
    for (let i = 0; i < perBatch; i++) await auth.getSession(request);
    samples.push(((performance.now() - t) * 1000) / perBatch);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}
