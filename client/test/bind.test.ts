/**
 * `createAuthClient(options)` binds the account helpers and (through `actions`) the plugins' client modules by
 * putting its options in each function's last parameter, found as `fn.length - 1`. Every such function must declare
 * `options` last with no default values (which `fn.length` would not count): checked here for each of them, then
 * each bound call is made and must reach the bound `baseUrl`/`basePath` through the bound `fetch`.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import * as account from '../src/account.js';
import { createAuthClient, type AccountActions } from '../src/index.js';
import * as twoFactor from '../src/plugins/two-factor.js';

type Fn = (...args: unknown[]) => unknown;

/** The parameter names of `fn`'s source (top-level commas of its first parenthesised list). */
function parameterNames(fn: Fn): string[] {
  const text = fn.toString();
  const open = text.indexOf('(');
  let depth = 0;
  let current = '';
  const names: string[] = [];
  for (const ch of text.slice(open + 1)) {
    if (depth === 0 && (ch === ')' || ch === ',')) {
      if (current.trim()) names.push(current.trim());
      current = '';
      if (ch === ')') break;
      continue;
    }
    if ('([{'.includes(ch)) depth++;
    if (')]}'.includes(ch)) depth--;
    current += ch;
  }
  return names;
}

/** Every plugin client module (`@framework/auth-client/plugins/*`), by file name. */
const MODULES: Record<string, Record<string, unknown>> = {};
beforeAll(async () => {
  const dir = fileURLToPath(new URL('../src/plugins/', import.meta.url));
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts')))
    MODULES[file] = (await import(`../src/plugins/${file}`)) as Record<string, unknown>;
});

/** Functions of the plugin modules that are no actions (they resolve to no `AccountResult`), so never bound. */
const NOT_ACTIONS = new Set(['bearerFetch', 'memoryTokenStore', 'getLastUsedLoginMethod']);

const ACCOUNT: (keyof AccountActions)[] = [
  'signUp',
  'sendVerificationEmail',
  'requestPasswordReset',
  'resetPassword',
  'changePassword',
  'changeEmail',
  'verifyEmail',
  'undoEmailChange',
  'listSessions',
  'revokeSession',
  'revokeOtherSessions',
  'unlinkAccount',
  'deleteAccount',
];

const actionsOf = (module: Record<string, unknown>) =>
  Object.entries(module).filter(
    (entry): entry is [string, Fn] => typeof entry[1] === 'function' && !NOT_ACTIONS.has(entry[0]),
  );

/** A fetch that records each URL and answers every request with a CSRF token (so POSTs go through). */
function recorder() {
  const urls: string[] = [];
  const fetcher: typeof fetch = async (input) => {
    urls.push(String(input));
    return new Response(JSON.stringify({ csrfToken: 't' }), { headers: { 'content-type': 'application/json' } });
  };
  return { urls, fetch: fetcher };
}

describe('the functions createAuthClient binds', () => {
  it('declare `options` last and no default values (fn.length counts every parameter)', () => {
    const all = [
      ...ACCOUNT.map((name) => [`account.${name}`, account[name] as Fn] as const),
      ...Object.entries(MODULES).flatMap(([m, module]) =>
        actionsOf(module).map(([name, fn]) => [`${m}.${name}`, fn] as const),
      ),
    ];
    expect(Object.keys(MODULES).length).toBeGreaterThanOrEqual(4);
    expect(all.length).toBeGreaterThan(45);
    const wrong = all.flatMap(([name, fn]) => {
      const params = parameterNames(fn);
      return params.at(-1) === 'options' && params.length === fn.length && !params.some((p) => p.includes('='))
        ? []
        : [`${name}(${params.join(', ')}) length ${fn.length}`];
    });
    expect(wrong).toEqual([]);
  });

  it('parameterNames reads defaults (the check can fail)', () => {
    const withDefault = (input: object = {}, options?: object) => [input, options];
    expect(parameterNames(withDefault as Fn)).toEqual(['input = {}', 'options']);
    expect(withDefault.length).toBe(0);
  });

  it('every bound account and plugin action reaches the bound baseUrl and basePath through the bound fetch', async () => {
    const { urls, fetch } = recorder();
    const client = createAuthClient({ baseUrl: 'https://api.example.com', basePath: '/id', fetch });
    const bound: [string, Fn, number][] = [
      ...ACCOUNT.map((name) => [name, client[name] as Fn, (account[name] as Fn).length] as [string, Fn, number]),
      ...Object.values(MODULES).flatMap((module) => {
        const actions = client.actions(module) as Record<string, Fn>;
        return actionsOf(module).map(([name, fn]) => [name, actions[name]!, fn.length] as [string, Fn, number]);
      }),
    ];
    for (const [name, fn, length] of bound) {
      urls.length = 0;
      // Every argument before `options` given as an empty object: enough for each function to send its request.
      const result = (await fn(...Array.from({ length: length - 1 }, () => ({})))) as { ok: boolean };
      expect({ name, ok: result.ok }).toEqual({ name, ok: true });
      expect(urls.length, name).toBeGreaterThan(0);
      expect(
        urls.filter((url) => !url.startsWith('https://api.example.com/id/')),
        name,
      ).toEqual([]);
    }
  });

  it("a call's own options win over the bound ones", async () => {
    const bound = recorder();
    const own = recorder();
    const client = createAuthClient({ baseUrl: 'https://api.example.com', fetch: bound.fetch });
    await client.revokeSession('s1', { baseUrl: 'https://other.example.com', fetch: own.fetch });
    await client.actions(twoFactor).getTwoFactorStatus({ basePath: '/elsewhere' });
    expect(own.urls).toEqual(['https://other.example.com/auth/csrf', 'https://other.example.com/auth/sessions/revoke']);
    expect(bound.urls).toEqual(['https://api.example.com/elsewhere/two-factor']);
  });
});
