/**
 * Test support: a D1 binding over Miniflare that only makes asynchronous calls. Each statement is sent to a tiny
 * Worker (`mf.dispatchFetch`) that runs it on its real D1 binding in workerd. Miniflare's own Node-side proxy
 * (`getD1Database`) makes synchronous cross-thread calls for `prepare`/`bind`, which lose their reply under heavy
 * parallel load (an assertion in Miniflare's `SynchronousFetcher`) and then fail every later call.
 * @module
 * @internal
 */
import { Miniflare } from 'miniflare';
import type { D1DatabaseLike, D1ResultLike, D1StatementLike, D1Value } from './binding.js';

const WORKER = `export default {
  async fetch(request, env) {
    const { mode, column, statements } = await request.json();
    const prepared = statements.map((s) => env.DB.prepare(s.sql).bind(...s.params));
    try {
      let value;
      if (mode === 'batch') value = await env.DB.batch(prepared);
      else if (mode === 'first') value = await prepared[0].first(column ?? undefined);
      else if (mode === 'all') value = await prepared[0].all();
      else value = await prepared[0].run();
      return Response.json({ ok: true, value: value ?? null });
    } catch (error) {
      return Response.json({ ok: false, message: String(error && error.message ? error.message : error) });
    }
  },
};`;

interface Sent {
  sql: string;
  params: D1Value[];
}

/** A Miniflare instance with one D1 database, and an async-only binding to it. */
export function miniflareD1(): { binding: D1DatabaseLike; dispose(): Promise<void> } {
  const mf = new Miniflare({ modules: true, script: WORKER, compatibilityDate: '2024-09-23', d1Databases: ['DB'] });

  async function call<T>(mode: string, statements: Sent[], column?: string): Promise<T> {
    const res = await mf.dispatchFetch('http://d1.test/', {
      method: 'POST',
      body: JSON.stringify({ mode, column: column ?? null, statements }),
    });
    const out = (await res.json()) as { ok: boolean; value?: T; message?: string };
    if (!out.ok) throw new Error(out.message);
    return out.value as T;
  }

  const statement = (sent: Sent): D1StatementLike & { sent: Sent } => ({
    sent,
    bind: (...values: D1Value[]) => statement({ sql: sent.sql, params: values }),
    first: <Row>(column?: string) => call<Row | null>('first', [sent], column),
    all: <Row>() => call<D1ResultLike<Row>>('all', [sent]),
    run: <Row>() => call<D1ResultLike<Row>>('run', [sent]),
  });

  const binding: D1DatabaseLike = {
    prepare: (sql) => statement({ sql, params: [] }),
    batch: <Row>(statements: D1StatementLike[]) =>
      call<D1ResultLike<Row>[]>(
        'batch',
        statements.map((s) => (s as D1StatementLike & { sent: Sent }).sent),
      ),
  };
  return { binding, dispose: () => mf.dispose() };
}
