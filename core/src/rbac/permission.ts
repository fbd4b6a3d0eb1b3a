/**
 * Permission strings: parsing and the grant keys a check looks up.
 *
 * Grammar (spec: "Role (RBAC)"):
 * - `*`: every permission;
 * - `resource:*`: every action on that resource only;
 * - `resource:action`;
 * - `resource:action:own`: the action on resources the user owns.
 *
 * `resource` and `action` are words of letters, digits, `_` and `-`, joined
 * by single dots (`billing.invoices`). Matching is case-sensitive.
 * @module
 * @internal
 */

const WORD = '[A-Za-z0-9_-]+(?:\\.[A-Za-z0-9_-]+)*';
const PATTERN = new RegExp(`^(?:\\*|(${WORD}):(?:\\*|(${WORD})(?::own)?))$`);

/** A parsed permission string. */
export type Permission =
  | { kind: 'all' }
  | { kind: 'resource'; resource: string }
  | { kind: 'action'; resource: string; action: string; own: boolean };

/** Parses a permission string, or returns null when it is malformed. */
export function parsePermission(text: unknown): Permission | null {
  if (typeof text !== 'string') return null;
  const match = PATTERN.exec(text);
  if (!match) return null;
  const [, resource, action] = match;
  if (resource === undefined) return { kind: 'all' };
  if (action === undefined) return { kind: 'resource', resource };
  return { kind: 'action', resource, action, own: text.endsWith(':own') };
}

/** The accepted forms, for error messages. */
export const PERMISSION_FORMS = '"resource:action", "resource:*", "resource:action:own" or "*"';

/**
 * The grant keys that satisfy `required`, split by whether they need the
 * resource to be owned by the user. A plain `resource:action` grant also
 * satisfies `resource:action:own`; a `resource:action:own` grant satisfies
 * either form only on an owned resource.
 */
export function satisfyingGrants(required: Permission): { always: string[]; whenOwned: string[] } {
  switch (required.kind) {
    case 'all':
      return { always: ['*'], whenOwned: [] };
    case 'resource':
      return { always: ['*', `${required.resource}:*`], whenOwned: [] };
    case 'action': {
      const plain = `${required.resource}:${required.action}`;
      return { always: ['*', `${required.resource}:*`, plain], whenOwned: [`${plain}:own`] };
    }
  }
}
