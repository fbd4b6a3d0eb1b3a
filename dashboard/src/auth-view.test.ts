/**
 * The Auth view: optional sources shown when given, "not configured" otherwise, filters passed through,
 * failures reported by name.
 */
import { describe, expect, it } from 'vitest';
import type { AuditFilter } from './auth-activity.js';
import { createDashboard } from './dashboard.js';

const get = (dashboard: ReturnType<typeof createDashboard>, path: string) =>
  dashboard.fetch(new Request(`http://localhost${path}`, { headers: { accept: 'text/html' } }), { ip: '127.0.0.1' });

describe('dashboard auth view', () => {
  it('says which sources are not configured', async () => {
    const html = await (await get(createDashboard({ mode: 'development' }), '/_framework/auth'))!.text();
    for (const option of ['activeSessions', 'signIns', 'rateLimitRefusals', 'auditLog'])
      expect(html).toContain(`authActivity.${option}`);
  });

  it('shows sessions, sign-ins derived from the audit log, refusals, and passes the filter', async () => {
    const filters: AuditFilter[] = [];
    const dashboard = createDashboard({
      mode: 'development',
      authActivity: {
        activeSessions: async () => 7,
        auditLog: async (filter) => {
          filters.push(filter);
          return [
            { at: new Date('2026-01-01T10:00:00Z'), action: 'signin', actor: 'ada@example.com', outcome: 'success' },
            {
              at: new Date('2026-01-01T09:00:00Z'),
              action: 'signin.failed',
              actor: '<script>',
              outcome: 'failure',
              ip: '203.0.113.5',
            },
            {
              at: new Date('2026-01-01T08:00:00Z'),
              action: 'user.role.changed',
              actor: 'ada@example.com',
              target: 'bob',
            },
          ];
        },
        rateLimitRefusals: async () => [{ at: new Date('2026-01-01T09:30:00Z'), key: '203.0.113.5', limit: 'signin' }],
      },
    });
    const html = await (await get(
      dashboard,
      '/_framework/auth?action=signin&outcome=failure&limit=5000&actor=',
    ))!.text();
    expect(html).toContain('data-active-sessions>7<');
    expect(html).toContain('signin.failed');
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('<script>');
    expect(html).toContain('203.0.113.5');
    expect(filters).toContainEqual({ limit: 200, action: 'signin', outcome: 'failure' });
  });

  it('reports a failing source by name instead of failing the page', async () => {
    const dashboard = createDashboard({
      mode: 'development',
      authActivity: { activeSessions: () => Promise.reject(new Error('db down')) },
    });
    const res = await get(dashboard, '/_framework/auth');
    expect(res?.status).toBe(200);
    const html = await res!.text();
    expect(html).toContain('Could not read: activeSessions.');
    expect(html).not.toContain('db down');
  });
});
