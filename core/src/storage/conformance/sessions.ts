/**
 * Conformance tests for database sessions.
 * @module
 * @internal
 */
import { expect, it } from 'vitest';
import {
  addUser,
  at,
  expectConflict,
  expectRejection,
  sampleSession,
  sortBy,
  type CurrentAdapter,
} from './fixtures.js';

/** Declares the session tests. */
export function sessionTests(current: CurrentAdapter): void {
  it('createSession round-trips; getSessionAndUser joins the user', async () => {
    const user = await addUser(current(), { roles: ['r'] });
    const session = sampleSession(user.id, { tokenHash: 'f'.repeat(64), expires: at(999), createdAt: at(-1) });
    expect(await current().createSession(session)).toStrictEqual(session);
    expect(await current().getSessionAndUser(session.id)).toStrictEqual({ session, user });
  });

  it('countActiveSessions counts sessions expiring after now', async () => {
    const user = await addUser(current());
    await current().createSession(sampleSession(user.id, { expires: at(1) }));
    await current().createSession(sampleSession(user.id, { expires: at(0) }));
    await current().createSession(sampleSession(user.id, { expires: at(-1) }));
    expect(await current().countActiveSessions!(at(0))).toBe(1);
    expect(await current().countActiveSessions!(at(-2))).toBe(3);
    expect(await current().countActiveSessions!(new Date(0))).toBe(3);
  });

  it('impersonatedBy round-trips and is absent on ordinary sessions', async () => {
    const [admin, user] = [await addUser(current()), await addUser(current())];
    const acting = sampleSession(user.id, { impersonatedBy: admin.id });
    expect(await current().createSession(acting)).toStrictEqual(acting);
    expect((await current().getSessionAndUser(acting.id))?.session).toStrictEqual(acting);
    expect(await current().listSessions(user.id)).toStrictEqual([acting]);
    const plain = await current().createSession(sampleSession(admin.id));
    expect((await current().getSessionAndUser(plain.id))?.session).not.toHaveProperty('impersonatedBy');
  });

  it('getSessionAndUser returns expired sessions as they are, and null for unknown ids', async () => {
    const user = await addUser(current());
    const expired = await current().createSession(sampleSession(user.id, { expires: new Date(1) }));
    expect((await current().getSessionAndUser(expired.id))?.session).toStrictEqual(expired);
    expect(await current().getSessionAndUser('no-such-session')).toBeNull();
  });

  it('createSession rejects a taken id ("id") and an unknown user', async () => {
    const user = await addUser(current());
    const session = await current().createSession(sampleSession(user.id));
    await expectConflict(current().createSession(sampleSession(user.id, { id: session.id })), 'id');
    await expectRejection(current().createSession(sampleSession('no-such-user')));
  });

  it('updateSessionExpiry sets the expiry and returns the session; unknown id gives null', async () => {
    const user = await addUser(current());
    const session = await current().createSession(sampleSession(user.id));
    const expires = at(86_400_001);
    expect(await current().updateSessionExpiry(session.id, expires)).toStrictEqual({ ...session, expires });
    expect((await current().getSessionAndUser(session.id))?.session).toStrictEqual({ ...session, expires });
    expect(await current().updateSessionExpiry('no-such-session', expires)).toBeNull();
  });

  it('deleteSession removes one session; unknown ids are a no-op', async () => {
    const user = await addUser(current());
    const [gone, kept] = [
      await current().createSession(sampleSession(user.id)),
      await current().createSession(sampleSession(user.id)),
    ];
    await current().deleteSession(gone.id);
    await current().deleteSession(gone.id);
    expect(await current().getSessionAndUser(gone.id)).toBeNull();
    expect((await current().getSessionAndUser(kept.id))?.session).toStrictEqual(kept);
  });

  it('deleteUserSessions deletes every session of one user and counts them', async () => {
    const [a, b] = [await addUser(current()), await addUser(current())];
    await current().createSession(sampleSession(a.id));
    await current().createSession(sampleSession(a.id));
    const other = await current().createSession(sampleSession(b.id));
    expect(await current().deleteUserSessions(a.id)).toBe(2);
    expect(await current().deleteUserSessions(a.id)).toBe(0);
    expect(await current().deleteUserSessions('no-such-user')).toBe(0);
    expect((await current().getSessionAndUser(other.id))?.session).toStrictEqual(other);
  });

  it('deleteExpiredSessions deletes sessions expiring at or before now, and counts them', async () => {
    const user = await addUser(current());
    const before = await current().createSession(sampleSession(user.id, { expires: at(-1) }));
    const exactly = await current().createSession(sampleSession(user.id, { expires: at(0) }));
    const after = await current().createSession(sampleSession(user.id, { expires: at(1) }));
    expect(await current().deleteExpiredSessions(at(0))).toBe(2);
    expect(await current().getSessionAndUser(before.id)).toBeNull();
    expect(await current().getSessionAndUser(exactly.id)).toBeNull();
    expect((await current().getSessionAndUser(after.id))?.session).toStrictEqual(after);
    expect(await current().deleteExpiredSessions(at(0))).toBe(0);
  });

  it('session metadata round-trips; absent metadata stays absent', async () => {
    const user = await addUser(current());
    const session = sampleSession(user.id, {
      userAgent: 'Mozilla/5.0 (X11) ünï',
      ip: '2001:db8::1',
      lastActiveAt: at(5),
    });
    expect(await current().createSession(session)).toStrictEqual(session);
    expect((await current().getSessionAndUser(session.id))?.session).toStrictEqual(session);
    const bare = await current().createSession(sampleSession(user.id, { ip: undefined }));
    expect(bare).not.toHaveProperty('userAgent');
    expect((await current().getSessionAndUser(bare.id))?.session).toStrictEqual(bare);
  });
  it('updateSessionExpiry records lastActiveAt when given and keeps it otherwise', async () => {
    const user = await addUser(current());
    const session = await current().createSession(sampleSession(user.id, { lastActiveAt: at() }));
    const touched = await current().updateSessionExpiry(session.id, at(7_200_000), at(60_001));
    expect(touched).toStrictEqual({ ...session, expires: at(7_200_000), lastActiveAt: at(60_001) });
    expect(await current().updateSessionExpiry(session.id, at(7_200_001))).toStrictEqual({
      ...session,
      expires: at(7_200_001),
      lastActiveAt: at(60_001),
    });
    expect((await current().getSessionAndUser(session.id))?.session.lastActiveAt).toStrictEqual(at(60_001));
  });
  it("listSessions lists one user's sessions, expired ones included, and [] for others", async () => {
    const [a, b] = [await addUser(current()), await addUser(current())];
    const mine = [
      await current().createSession(sampleSession(a.id, { ip: '203.0.113.7' })),
      await current().createSession(sampleSession(a.id, { expires: new Date(1) })),
    ];
    await current().createSession(sampleSession(b.id));
    expect(sortBy(await current().listSessions(a.id), (s) => s.id)).toStrictEqual(sortBy(mine, (s) => s.id));
    expect(await current().listSessions('no-such-user')).toStrictEqual([]);
    await current().deleteUserSessions(a.id);
    expect(await current().listSessions(a.id)).toStrictEqual([]);
  });
}
