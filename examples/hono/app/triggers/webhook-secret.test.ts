/**
 * The example's signed webhook has no default secret in production: without a
 * strong WEBHOOK_SECRET the app does not start (checked when the runtime is
 * created, not at import, so frameworks can still build).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryAdapter } from '@framework/auth';
import { createExampleRuntime } from '@framework/example-shared/triggers';
import type { Mailer } from '@framework/example-shared/mailer';
import { assertWebhookSecret, DEV_WEBHOOK_SECRET, webhookSecret } from './_webhook-secret.js';

const strong = 'f'.repeat(64);

describe('WEBHOOK_SECRET', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('is required in production, at least 32 characters and never the development secret', () => {
    for (const WEBHOOK_SECRET of [undefined, '', 'short', 'x'.repeat(31), DEV_WEBHOOK_SECRET]) {
      const env = { NODE_ENV: 'production', ...(WEBHOOK_SECRET === undefined ? {} : { WEBHOOK_SECRET }) };
      expect(() => assertWebhookSecret(env), String(WEBHOOK_SECRET)).toThrow(/WEBHOOK_SECRET must be set/);
      // Never a default: an unguessable secret of this process, different each time.
      const secret = webhookSecret(env);
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
      expect(webhookSecret(env)).not.toBe(secret);
    }
    expect(webhookSecret({ NODE_ENV: 'production', WEBHOOK_SECRET: strong })).toBe(strong);
    expect(() => assertWebhookSecret({ NODE_ENV: 'production', WEBHOOK_SECRET: strong })).not.toThrow();
  });

  it('falls back to the documented development secret outside production only', () => {
    expect(webhookSecret({})).toBe(DEV_WEBHOOK_SECRET);
    expect(webhookSecret({ NODE_ENV: 'test', WEBHOOK_SECRET: 'mine' })).toBe('mine');
  });

  it('lets the module load (frameworks import it while building) but stops the runtime from being created', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    vi.stubEnv('WEBHOOK_SECRET', '');
    const { default: trigger } = await import('./signed-webhook.js');
    expect(trigger.source).toMatchObject({ type: 'webhook', path: '/webhooks/demo' });
    expect(() => createExampleRuntime(createMemoryAdapter(), {} as Mailer)).toThrow(/WEBHOOK_SECRET must be set/);
    vi.stubEnv('WEBHOOK_SECRET', strong);
    expect(() => createExampleRuntime(createMemoryAdapter(), {} as Mailer)).not.toThrow();
  });
});
