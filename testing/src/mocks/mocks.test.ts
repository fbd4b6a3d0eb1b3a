import { describe, expect, it, vi } from 'vitest';
import { authMiddleware } from '@framework/auth/middleware';
import { defineRBAC } from '@framework/auth/convention';
import { createMockContext } from './context.js';
import { createMockLoaderArgs } from './loader-args.js';
import { createMockMessage } from './message.js';
import { createMockRequest } from './request.js';

describe('createMockRequest', () => {
  it('builds a GET on http://localhost', () => {
    const request = createMockRequest('/posts?page=2', { headers: { accept: 'text/html' } });
    expect(request.method).toBe('GET');
    expect(request.url).toBe('http://localhost/posts?page=2');
    expect(request.headers.get('accept')).toBe('text/html');
  });

  it('JSON-encodes an object body, sets the content type, and defaults to POST', async () => {
    const request = createMockRequest('/api', { body: { title: 'Hello', tags: ['a'] } });
    expect(request.method).toBe('POST');
    expect(request.headers.get('content-type')).toBe('application/json');
    expect(await request.json()).toEqual({ title: 'Hello', tags: ['a'] });
  });

  it('keeps a given content type and passes other bodies through', async () => {
    const json = createMockRequest('/api', {
      method: 'PUT',
      body: [1],
      headers: { 'content-type': 'application/vnd.api+json' },
    });
    expect(json.method).toBe('PUT');
    expect(json.headers.get('content-type')).toBe('application/vnd.api+json');
    const form = createMockRequest('/form', { body: new URLSearchParams({ a: '1' }) });
    expect(form.headers.get('content-type')).toContain('application/x-www-form-urlencoded');
    expect(await form.text()).toBe('a=1');
    expect(await createMockRequest('/t', { body: 'plain' }).text()).toBe('plain');
  });
});

describe('createMockLoaderArgs', () => {
  it('fills defaults', () => {
    const args = createMockLoaderArgs();
    expect(args.params).toEqual({});
    expect(args.context).toEqual({});
    expect(args.request.url).toBe('http://localhost/');
  });

  it('takes params, a path or a request, and a context with env and db', () => {
    const db = { query: vi.fn() };
    const args = createMockLoaderArgs({ params: { id: '7' }, request: '/posts/7', context: { env: { API: 'x' }, db } });
    expect(args.params).toEqual({ id: '7' });
    expect(args.request.url).toBe('http://localhost/posts/7');
    expect(args.context.db).toBe(db);
    const request = new Request('https://app.test/x');
    expect(createMockLoaderArgs({ request }).request).toBe(request);
  });
});

describe('createMockContext', () => {
  const rbac = defineRBAC({
    roles: [
      { id: 'admin', name: 'Admin', permissions: ['*'] },
      { id: 'viewer', name: 'Viewer', permissions: [] },
    ],
  });
  const next = () => new Response('inside');
  const api = () => createMockRequest('/admin', { headers: { accept: 'application/json' } });

  it('is the context authMiddleware reads the user from', async () => {
    const admin = createMockContext({ auth: { user: { id: 'u1', role: 'admin' } } });
    const guard = authMiddleware({ role: 'admin', rbac });
    expect(await (await guard(api(), next, admin)).text()).toBe('inside');
    expect(admin.auth.getUser).toHaveBeenCalled();
    expect((await guard(api(), next, createMockContext({ auth: { user: { id: 'u2', role: 'viewer' } } }))).status).toBe(
      403,
    );
    expect((await guard(api(), next, createMockContext())).status).toBe(401);
  });

  it('takes an async getUser and an env', async () => {
    const env = { FLAG: true };
    const context = createMockContext({ env, auth: { getUser: async () => ({ id: 'u9' }) } });
    expect(context.env).toBe(env);
    await expect(context.auth.getUser()).resolves.toEqual({ id: 'u9' });
    expect(typeof createMockContext().env).toBe('object');
  });
});

describe('createMockMessage', () => {
  it('has the body and spies for ack, retry and deadLetter', () => {
    const message = createMockMessage({ body: { to: 'ada@example.com' }, attempts: 2 });
    expect(message.body).toEqual({ to: 'ada@example.com' });
    expect(message.attempts).toBe(2);
    expect(message.id).toMatch(/^message-\d+$/);
    message.retry({ delay: '10s' });
    expect(message.retry).toHaveBeenCalledWith({ delay: '10s' });
    expect(message.ack).not.toHaveBeenCalled();
    expect(message.deadLetter).not.toHaveBeenCalled();
    expect(vi.isMockFunction(message.ack)).toBe(true);
  });
});
