/**
 * Concurrent requests never leave an organization without an owner: two co-owners racing to delete their accounts,
 * to leave, to remove or demote each other, or an admin removing one while the other deletes their account, end
 * with one owner left and exactly one request refused with 409 `LAST_OWNER`. Run on memory, SQLite and PostgreSQL
 * (the organizations there, users in memory). A deletion refused later (by `onDeleteUser`) puts the memberships back.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { postgresSchemas } from '../../../../test-support/pg-schemas.js';
import { AuthError } from '../../errors.js';
import { errorOf, ownerFixture, storeKinds } from './owner-fixture.js';

// Under CI=true this throws when PostgreSQL is down, failing the file.
const pgSchemas = await postgresSchemas('org_owner_race', { poolSize: 10 });
const open = storeKinds(pgSchemas);
const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});
afterAll(() => pgSchemas.dropAll());

/** How many times each race runs, each time with fresh people and a fresh organization. */
const ROUNDS = 3;

describe.each(Object.keys(open))('an organization keeps an owner under concurrent requests (%s storage)', (kind) => {
  /**
   * The fixture, with an `onDeleteUser` callback that takes a while, as one calling a payment provider does: it
   * holds each deletion open between the organizations' checks and the removal of the user, where a racing request
   * gets in. `inOnDeleteUser()` resolves when the next deletion reaches it.
   */
  async function setup() {
    const stores = await open[kind]!();
    closing.push(stores.close);
    const waiting: Array<() => void> = [];
    const f = await ownerFixture(stores, {
      callbacks: {
        async onDeleteUser() {
          for (const wake of waiting.splice(0)) wake();
          await new Promise((done) => setTimeout(done, 100));
        },
      },
    });
    const inOnDeleteUser = () => new Promise<void>((reached) => waiting.push(reached));
    return { ...f, inOnDeleteUser };
  }
  type Fixture = Awaited<ReturnType<typeof setup>>;
  type Person = Awaited<ReturnType<Fixture['person']>>;

  /**
   * Runs `race` ROUNDS times on two co-owners `ada` and `grace` of a fresh organization (with `root`, an admin):
   * exactly one of the two requests is 200, the other 409 `LAST_OWNER` (or, where the loser may also have lost the
   * right to act first, one of `alsoRefusedAs`), and one owner is left.
   */
  async function raceOwners(
    race: (f: Fixture, people: { ada: Person; grace: Person; root: Person }, orgId: string) => Promise<Response>[],
    alsoRefusedAs: string[] = [],
  ) {
    const f = await setup();
    const root = await f.person('root', 'admin');
    for (let round = 0; round < ROUNDS; round++) {
      const ada = await f.person(`ada${round}`);
      const grace = await f.person(`grace${round}`);
      const orgId = await f.organization(ada.c, `Acme ${round}`, [grace], 'owner');
      const answers = await Promise.all((await Promise.all(race(f, { ada, grace, root }, orgId))).map(errorOf));
      expect(answers.filter(([status]) => status === 200)).toHaveLength(1);
      const refused = answers.filter(([status]) => status !== 200);
      expect(refused).toHaveLength(1);
      if (alsoRefusedAs.length === 0) expect(refused[0]).toEqual([409, 'LAST_OWNER']);
      else expect(['LAST_OWNER', ...alsoRefusedAs]).toContain(refused[0]![1]);
      const owners = await f.owners(orgId);
      expect(owners).toHaveLength(1);
      expect([ada.id, grace.id]).toContain(owners[0]);
      expect(await f.adapter.getUser(owners[0]!)).not.toBeNull();
    }
    return f;
  }

  it('two co-owners deleting their accounts at once: one is refused and keeps the organization', async () => {
    await raceOwners((f, { ada, grace }) => [f.deleteOwn(ada), f.deleteOwn(grace)]);
  });

  it('one co-owner deleting their account while the other leaves', async () => {
    await raceOwners((f, { ada, grace }, organizationId) => [
      f.deleteOwn(ada),
      grace.c.postJson('/auth/org/leave', { organizationId }),
    ]);
    // The leave arriving while the deletion is under way (its onDeleteUser callback running).
    await raceOwners((f, { ada, grace }, organizationId) => [
      f.deleteOwn(ada),
      f.inOnDeleteUser().then(() => grace.c.postJson('/auth/org/leave', { organizationId })),
    ]);
  });

  it("admin()'s remove-user of one co-owner while the other deletes their account", async () => {
    await raceOwners((f, { ada, grace, root }) => [
      root.c.postJson('/auth/admin/users/remove', { userId: ada.id }),
      f.deleteOwn(grace),
    ]);
  });

  // The loser may also find itself removed (404) or demoted (403) before its own check: any refusal will do.
  it('two co-owners removing each other, or demoting each other, at once', async () => {
    await raceOwners(
      (_f, { ada, grace }, organizationId) => [
        ada.c.postJson('/auth/org/members/remove', { organizationId, userId: grace.id }),
        grace.c.postJson('/auth/org/members/remove', { organizationId, userId: ada.id }),
      ],
      ['TENANT_NOT_FOUND'],
    );
    await raceOwners(
      (_f, { ada, grace }, organizationId) => [
        ada.c.postJson('/auth/org/members/set-role', { organizationId, userId: grace.id, role: 'admin' }),
        grace.c.postJson('/auth/org/members/set-role', { organizationId, userId: ada.id, role: 'member' }),
      ],
      ['FORBIDDEN'],
    );
  });

  it('both co-owners leaving at once, and one deleting their account while the other is removed', async () => {
    await raceOwners((_f, { ada, grace }, organizationId) => [
      ada.c.postJson('/auth/org/leave', { organizationId }),
      grace.c.postJson('/auth/org/leave', { organizationId }),
    ]);
    await raceOwners(
      (f, { ada, grace }, organizationId) => [
        f.deleteOwn(ada),
        ada.c.postJson('/auth/org/members/remove', { organizationId, userId: grace.id }),
      ],
      ['TENANT_NOT_FOUND', 'USER_NOT_FOUND', 'UNAUTHORIZED', 'SESSION_EXPIRED'],
    );
  });
});

describe('a deletion refused after the organizations let it go', () => {
  it('puts every membership back, with its role and join time (onDeleteUser refusing)', async () => {
    const stores = await storeKinds().memory!();
    const f = await ownerFixture(stores, {
      callbacks: {
        onDeleteUser() {
          throw new AuthError('Cancel your subscription first', { code: 'FORBIDDEN', status: 403 });
        },
      },
    });
    const ada = await f.person('ada');
    const grace = await f.person('grace');
    const shared = await f.organization(ada.c, 'Shared', [grace], 'owner');
    const other = await f.organization(ada.c, 'Other', [grace], 'admin');
    const before = await f.tenants.listMemberships(grace.id);
    expect(await errorOf(await f.deleteOwn(grace))).toEqual([403, 'FORBIDDEN']);
    expect(await f.adapter.getUser(grace.id)).not.toBeNull();
    const after = await f.tenants.listMemberships(grace.id);
    const byOrg = (list: typeof before) => [...list].sort((a, b) => (a.tenantId < b.tenantId ? -1 : 1));
    expect(byOrg(after)).toStrictEqual(byOrg(before));
    expect(await f.roleOf(shared, grace.id)).toBe('owner');
    expect(await f.roleOf(other, grace.id)).toBe('admin');
  });

  it('a refusal part-way (owner of one organization alone) changes no membership', async () => {
    const stores = await storeKinds().memory!();
    const f = await ownerFixture(stores);
    const ada = await f.person('ada');
    const grace = await f.person('grace');
    await f.organization(ada.c, 'Shared', [grace], 'owner');
    await f.organization(grace.c, 'Team', [ada], 'member');
    await f.organization(ada.c, 'Alone', [grace], 'admin');
    const before = await f.tenants.listMemberships(ada.id);
    expect(await errorOf(await f.deleteOwn(ada))).toEqual([409, 'LAST_OWNER']);
    const after = await f.tenants.listMemberships(ada.id);
    const byOrg = (list: typeof before) => [...list].sort((a, b) => (a.tenantId < b.tenantId ? -1 : 1));
    expect(byOrg(after)).toStrictEqual(byOrg(before));
  });
});
