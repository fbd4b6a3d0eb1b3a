/** Runs under the edge config: Web APIs and the kit's helpers work. */
import { expect, it } from 'vitest';
import { createMockEnv, createMockRequest, createMockStatefulObjectState } from '@framework/testing';
import { requestScope } from './request-scope.js';

it('runs in the edge-runtime environment', async () => {
  expect(typeof (globalThis as { EdgeRuntime?: unknown }).EdgeRuntime).toBe('string');
  const request = createMockRequest('/api', { body: { ok: true } });
  expect(await request.json()).toEqual({ ok: true });
  const env = createMockEnv();
  await env.CACHE.put('k', 'v');
  expect(await env.CACHE.get('k')).toBe('v');
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode('x'));
  expect(digest.byteLength).toBe(32);
  const state = createMockStatefulObjectState();
  await state.storage.put('n', 1);
  expect(state.storage.put).toHaveBeenCalledOnce();
  expect(requestScope.run('r1', () => requestScope.getStore())).toBe('r1');
});
