/** Custom user fields in JWT sessions: carried in the token (`user_fields`) and read back with their types. */
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { createAuth } from '../auth.js';
import { createMemoryAdapter } from '../storage/memory.js';
import { ORIGIN, SECRET, TestClient } from '../testing/fixtures.js';

function setup() {
  return createAuth({
    secret: SECRET,
    baseURL: ORIGIN,
    providers: [],
    logger: { error: () => {}, warn: () => {} },
    adapter: createMemoryAdapter(),
    session: { strategy: 'jwt' },
    emailAndPassword: {},
    user: {
      additionalFields: {
        plan: { type: 'string', defaultValue: 'free', input: false },
        seats: { type: 'number' },
        birthday: { type: 'date' },
        tags: { type: 'string[]' },
        vip: { type: 'boolean', defaultValue: false },
      },
    },
  });
}

describe('custom user fields in JWT sessions', () => {
  it('returns the fields on getSession() (dates as Date) and GET /session (dates as ISO strings)', async () => {
    const auth = setup();
    const c = new TestClient(auth);
    const res = await c.postJson('/auth/signup', {
      email: 'ada@example.com',
      password: 'correct horse battery',
      name: 'Ada',
      seats: '2',
      birthday: '1815-12-10',
    });
    expect(res.status, await res.clone().text()).toBeLessThan(400);
    const session = await c.session();
    expect(session?.user).toMatchObject({
      plan: 'free',
      seats: 2,
      birthday: '1815-12-10T00:00:00.000Z',
      tags: null,
      vip: false,
    });
    const state = await auth.getSession(new Request(`${ORIGIN}/`, { headers: { cookie: c.cookieHeader() } }));
    expect(state.user).toMatchObject({ plan: 'free', seats: 2, tags: null, vip: false });
    expect(state.user?.birthday).toStrictEqual(new Date('1815-12-10T00:00:00.000Z'));
    // The values ride in the signed token itself, not in a storage read.
    const token = c
      .cookieHeader()
      .split('; ')
      .find((pair) => pair.includes('session'))!
      .split('=')[1]!;
    expect(decodeJwt(token).user_fields).toMatchObject({ plan: 'free', birthday: '1815-12-10T00:00:00.000Z' });
  });
});
