/** Memory login rate limits: five attempts, then 429 with Retry-After. */
import { createFixedWindowStorage, createLoginRateLimiter } from '@framework/auth/rate-limit';
import { check, same, type Scenario } from '../scenario.js';

export const rateLimitScenarios: Scenario[] = [
  {
    name: 'rate-limit: the memory login limiter allows 5 attempts, then refuses',
    async run() {
      const limiter = createLoginRateLimiter(createFixedWindowStorage());
      const attempt = () =>
        limiter.check(new Request('https://app.test/auth/callback/credentials', { method: 'POST' }), {
          ip: '203.0.113.7',
          identifier: 'ada@example.com',
        });
      for (let i = 1; i <= 5; i++) same((await attempt()).success, true, `attempt ${i}`);
      const refused = await attempt();
      same(refused.success, false, 'attempt 6');
      same(refused.code, 'RATE_LIMITED', 'code');
      check((refused.retryAfter ?? 0) > 0, `retryAfter ${String(refused.retryAfter)}`);
    },
  },
];
