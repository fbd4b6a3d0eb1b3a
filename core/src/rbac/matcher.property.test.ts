/**
 * The permission matcher against a deliberately naive reference model: it
 * walks the hierarchy on every check and compares permission strings piece
 * by piece, with none of defineRBAC's precomputation.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AuthConfigError } from '../errors.js';
import { defineRBAC } from './define.js';
import type { OwnedResource, RBACConfig, RBACSubject } from './types.js';

const ROLE_IDS = ['r0', 'r1', 'r2', 'r3', 'r4', 'r5'];
const RESOURCES = ['posts', 'users'];
const ACTIONS = ['read', 'edit'];

const permission = fc.oneof(
  fc.constant('*'),
  fc.constantFrom(...RESOURCES).map((r) => `${r}:*`),
  fc
    .tuple(fc.constantFrom(...RESOURCES), fc.constantFrom(...ACTIONS), fc.boolean())
    .map(([r, a, own]) => `${r}:${a}${own ? ':own' : ''}`),
);

/** Acyclic by construction: a role inherits only roles with a smaller index, so chains reach the full depth. */
const config: fc.Arbitrary<RBACConfig> = fc
  .record({
    count: fc.integer({ min: 1, max: ROLE_IDS.length }),
    grants: fc.array(fc.array(permission, { maxLength: 3 }), {
      minLength: ROLE_IDS.length,
      maxLength: ROLE_IDS.length,
    }),
    parents: fc.array(fc.subarray([0, 1, 2, 3, 4]), { minLength: ROLE_IDS.length, maxLength: ROLE_IDS.length }),
    defaultRole: fc.option(fc.nat({ max: ROLE_IDS.length - 1 }), { nil: undefined }),
  })
  .map(({ count, grants, parents, defaultRole }) => {
    const ids = ROLE_IDS.slice(0, count);
    const hierarchy: Record<string, string[]> = {};
    ids.forEach((id, i) => {
      const below = parents[i]!.filter((p) => p < i).map((p) => ids[p]!);
      if (below.length > 0) hierarchy[id] = below;
    });
    return {
      roles: ids.map((id, i) => ({ id, name: id.toUpperCase(), permissions: grants[i]! })),
      hierarchy,
      ...(defaultRole !== undefined && defaultRole < count ? { defaultRole: ids[defaultRole]! } : {}),
    };
  });

const roleRef = fc.constantFrom(...ROLE_IDS, 'ghost');
const user: fc.Arbitrary<RBACSubject> = fc.record(
  { id: fc.constantFrom('u1', 'u2'), role: roleRef, roles: fc.array(roleRef, { maxLength: 3 }) },
  { requiredKeys: ['id'] },
);
const resource: fc.Arbitrary<OwnedResource | undefined> = fc.option(
  fc.record(
    { ownerId: fc.constantFrom('u1', 'u2', null), userId: fc.constantFrom('u1', 'u2', null) },
    { requiredKeys: [] },
  ),
  { nil: undefined },
);

// ---- the reference model ----

function referenceRoles(c: RBACConfig, u: RBACSubject): string[] {
  const defined = new Set(c.roles.map((r) => r.id));
  const listed = u.roles && u.roles.length > 0 ? u.roles : u.role ? [u.role] : c.defaultRole ? [c.defaultRole] : [];
  return listed.filter((r) => defined.has(r));
}

function inherited(c: RBACConfig, id: string): string[] {
  return [id, ...(c.hierarchy?.[id] ?? []).flatMap((p) => inherited(c, p))];
}

function grantMatches(grant: string, wanted: string, u: RBACSubject, res: OwnedResource | undefined): boolean {
  if (grant === '*') return true;
  if (wanted === '*') return false;
  const [gr, ga, gown] = grant.split(':');
  const [wr, wa, wown] = wanted.split(':');
  if (gr !== wr) return false;
  if (ga === '*') return true;
  if (wa === '*' || ga !== wa) return false;
  if (gown !== 'own') return true;
  if (res) return (res.ownerId ?? res.userId) === u.id;
  return wown === 'own';
}

function referenceHasPermission(
  c: RBACConfig,
  u: RBACSubject,
  wanted: string,
  res: OwnedResource | undefined,
): boolean {
  const grants = referenceRoles(c, u).flatMap((r) =>
    inherited(c, r).flatMap((id) => c.roles.find((x) => x.id === id)!.permissions),
  );
  return grants.some((g) => grantMatches(g, wanted, u, res));
}

describe('permission matcher vs the reference model', () => {
  it('hasPermission agrees on every config, user, permission and resource', () => {
    fc.assert(
      fc.property(config, user, permission, resource, (c, u, wanted, res) => {
        expect(defineRBAC(c).hasPermission(u, wanted, res)).toBe(referenceHasPermission(c, u, wanted, res));
      }),
      { numRuns: 2000 },
    );
  });

  it('hasRole agrees: a user holds every role their roles inherit', () => {
    fc.assert(
      fc.property(config, user, fc.constantFrom(...ROLE_IDS), (c, u, wanted) => {
        fc.pre(c.roles.some((r) => r.id === wanted));
        const expected = referenceRoles(c, u).some((r) => inherited(c, r).includes(wanted));
        expect(defineRBAC(c).hasRole(u, wanted)).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it('permissionsOf is the union along the inheritance chain', () => {
    fc.assert(
      fc.property(config, (c) => {
        const rbac = defineRBAC(c);
        for (const role of c.roles) {
          const expected = [
            ...new Set(inherited(c, role.id).flatMap((id) => c.roles.find((x) => x.id === id)!.permissions)),
          ].sort();
          expect(rbac.permissionsOf(role.id)).toStrictEqual(expected);
        }
      }),
    );
  });

  it('any hierarchy with a cycle is rejected, and any without one is accepted', () => {
    const graph = fc.array(fc.tuple(fc.nat({ max: 4 }), fc.nat({ max: 4 })), { maxLength: 8 });
    fc.assert(
      fc.property(graph, (edges) => {
        const ids = ROLE_IDS.slice(0, 5);
        const hierarchy: Record<string, string[]> = {};
        for (const [from, to] of edges) (hierarchy[ids[from]!] ??= []).push(ids[to]!);
        const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
          (hierarchy[from] ?? []).some((n) => n === to || (!seen.has(n) && (seen.add(n), reaches(n, to, seen))));
        const cyclic = ids.some((id) => reaches(id, id));
        const define = () => defineRBAC({ roles: ids.map((id) => ({ id, name: id, permissions: [] })), hierarchy });
        if (cyclic) expect(define).toThrow(AuthConfigError);
        else expect(define).not.toThrow();
      }),
      { numRuns: 1000 },
    );
  });
});
