import { expect, it } from 'vitest';
import { benchSessionRead } from './bench-session.js';

it('benchSessionRead reports session-read µs for both strategies on Node 20 and Node 24', async () => {
  const result = await benchSessionRead();
  expect(Object.keys(result).sort()).toStrictEqual(['node20.database', 'node20.jwt', 'node24.database', 'node24.jwt']);
  for (const micros of Object.values(result)) expect(micros).toBeGreaterThan(0);
}, 30_000);
