/**
 * Resolution of the role hierarchy: each role's transitive set of inherited
 * roles, computed once by depth-first search, with cycles reported.
 * @module
 * @internal
 */
import { AuthConfigError } from '../errors.js';

/**
 * For every role id, the set holding it and every role it inherits,
 * directly or through other roles.
 * @throws AuthConfigError for a cycle, naming its path (`a → b → a`).
 */
export function resolveHierarchy(
  roleIds: readonly string[],
  hierarchy: ReadonlyMap<string, readonly string[]>,
): Map<string, Set<string>> {
  const closure = new Map<string, Set<string>>();
  const path: string[] = [];
  const onPath = new Set<string>();

  function visit(id: string): Set<string> {
    const done = closure.get(id);
    if (done) return done;
    if (onPath.has(id)) {
      const cycle = [...path.slice(path.indexOf(id)), id].map((r) => JSON.stringify(r)).join(' → ');
      throw new AuthConfigError(`Invalid RBAC: the hierarchy has a cycle: ${cycle}`);
    }
    onPath.add(id);
    path.push(id);
    const set = new Set<string>([id]);
    for (const parent of hierarchy.get(id) ?? []) for (const inherited of visit(parent)) set.add(inherited);
    path.pop();
    onPath.delete(id);
    closure.set(id, set);
    return set;
  }

  for (const id of roleIds) visit(id);
  return closure;
}
