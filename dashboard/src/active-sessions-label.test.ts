/** The active session count is shown as an approximate figure: the SQL adapters recount it at most once a minute. */
import { expect, it } from 'vitest';
import { createDashboard } from './dashboard.js';

it('labels the active session count as approximate ("about")', async () => {
  const dashboard = createDashboard({ mode: 'development', authActivity: { activeSessions: async () => 1234 } });
  const response = await dashboard.fetch(
    new Request('http://localhost/_framework/auth', { headers: { accept: 'text/html' } }),
    { ip: '127.0.0.1' },
  );
  const html = await response!.text();
  expect(html).toContain('data-active-sessions>1234<');
  expect(html).toMatch(/data-active-sessions-note>About this many\b[^<]*once a minute/);
});
