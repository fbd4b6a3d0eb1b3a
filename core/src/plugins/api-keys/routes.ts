/**
 * The routes of `apiKeys()`: `GET|POST /api-keys` (list, create) and
 * `POST /api-keys/revoke`. They answer only a session cookie: the core never
 * lets a plugin-resolved credential (an API key) count on auth routes.
 * @module
 * @internal
 */
import { parseDisplayName } from '../../input/text.js';
import { UnauthenticatedError, badRequest } from '../../errors.js';
import { authError } from '../../errors/auth-error.js';
import { parsePermission, PERMISSION_FORMS } from '../../rbac/permission.js';
import type { ActionResult, RouteContext } from '../../contract/types.js';
import { StorageConflictError } from '../../storage/types.js';
import type { User } from '../../types.js';
import { randomString } from '../../crypto.js';
import { generateKey, hashSecret } from './key-format.js';
import type { ResolvedApiKeysOptions } from './options.js';
import { usable } from './resolve.js';
import { impersonationRestricted } from '../../routes/account/signed-in.js';
import type { ApiKeyInfo, ApiKeyRecord } from './types.js';

const MAX_NAME_LENGTH = 100;
const MAX_PERMISSIONS = 64;
const MAX_ROLES = 16;
/** Secrets and key lists are never stored by caches (RFC 9111 §5.2.2.5). */
const NO_STORE = { 'cache-control': 'no-store' };

/** A record as clients see it: no secret, no hash. */
export function keyInfo(r: ApiKeyRecord): ApiKeyInfo {
  return {
    id: r.id,
    prefix: r.prefix,
    name: r.name,
    permissions: r.permissions,
    roles: r.roles,
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt?.toISOString() ?? null,
    revokedAt: r.revokedAt?.toISOString() ?? null,
  };
}

async function signedIn(ctx: RouteContext): Promise<User> {
  const { user } = await ctx.auth.readSession(ctx.request);
  if (!user) throw new UnauthenticatedError('Sign in to manage API keys');
  return user;
}

/** {@link signedIn}, refusing an impersonation session (keys are credentials: the user's own act). */
async function signedInAsSelf(ctx: RouteContext): Promise<User> {
  const { user, session } = await ctx.auth.readSession(ctx.request);
  if (!user) throw new UnauthenticatedError('Sign in to manage API keys');
  if (session?.impersonatedBy !== undefined) throw impersonationRestricted();
  return user;
}

/** The key's label: the shared display-name parser (control, direction and invisible characters refused). */
function readName(body: Record<string, string>): string | null {
  return parseDisplayName(body.name, { maxLength: MAX_NAME_LENGTH });
}

function readExpiry(body: Record<string, string>, o: ResolvedApiKeysOptions, now: number): Date | null {
  const raw = body.expiresIn;
  if (raw === undefined || raw === '') {
    if (o.maxExpiresIn !== undefined) return new Date(now + o.maxExpiresIn * 1000);
    return null;
  }
  const seconds = /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(seconds)) throw badRequest('expiresIn must be a positive whole number of seconds');
  if (o.maxExpiresIn !== undefined && seconds > o.maxExpiresIn)
    throw badRequest(`expiresIn may be at most ${o.maxExpiresIn} seconds`);
  return new Date(now + seconds * 1000);
}

/** `permissions`: space-separated patterns (as OAuth's `scope`, RFC 6749 §3.3), each one the user holds. */
function readPermissions(ctx: RouteContext, user: User): string[] | null {
  const raw = ctx.body.permissions;
  if (raw === undefined) return null;
  const list = [...new Set(raw.split(/[\s,]+/).filter((p) => p !== ''))];
  if (list.length > MAX_PERMISSIONS) throw badRequest(`At most ${MAX_PERMISSIONS} permissions per key`);
  const malformed = list.find((p) => !parsePermission(p));
  if (malformed !== undefined)
    throw badRequest(`Malformed permission ${JSON.stringify(malformed.slice(0, 80))} (expected ${PERMISSION_FORMS})`);
  if (list.length === 0) return [];
  const rbac = ctx.auth.rbac;
  if (!rbac) throw badRequest('Permissions need role definitions (createAuth({ rbac }))');
  const lacking = list.find((p) => !rbac.hasPermission(user, p));
  if (lacking !== undefined)
    throw authError('FORBIDDEN', `You do not hold ${JSON.stringify(lacking)}, so a key cannot have it`);
  return list;
}

/**
 * `roles`: space-separated role ids granted explicitly (a role check of the key's session passes for them), each one
 * defined and held by the user now (with the hierarchy: a role the user inherits counts).
 * @throws AuthError `INVALID_REQUEST` (400) for a malformed or undefined role or no role definitions; `FORBIDDEN`
 *   (403) for a role the user does not hold.
 */
function readRoles(ctx: RouteContext, user: User): string[] | null {
  const raw = ctx.body.roles;
  if (raw === undefined) return null;
  const list = [...new Set(raw.split(/[\s,]+/).filter((r) => r !== ''))];
  if (list.length === 0) return null;
  if (list.length > MAX_ROLES) throw badRequest(`At most ${MAX_ROLES} roles per key`);
  const rbac = ctx.auth.rbac;
  if (!rbac) throw badRequest('Roles need role definitions (createAuth({ rbac }))');
  const unknown = list.find((r) => !rbac.roles.has(r));
  if (unknown !== undefined) throw badRequest(`Unknown role ${JSON.stringify(unknown.slice(0, 80))}`);
  const lacking = list.find((r) => !rbac.hasRole(user, r));
  if (lacking !== undefined)
    throw authError('FORBIDDEN', `You do not hold the role ${JSON.stringify(lacking)}, so a key cannot have it`);
  return list;
}

/** `GET /api-keys`: the signed-in user's keys, newest last, without secrets. */
export async function listAction(ctx: RouteContext, o: ResolvedApiKeysOptions): Promise<ActionResult> {
  const user = await signedIn(ctx);
  const keys = await o.storage.listByUser(user.id);
  return { status: 200, json: { keys: keys.map(keyInfo) }, headers: NO_STORE };
}

/**
 * `POST /api-keys` (`name?`, `expiresIn?` seconds, `permissions?` and `roles?` space-separated): 201 with the key,
 * shown this once.
 */
export async function createAction(ctx: RouteContext, o: ResolvedApiKeysOptions): Promise<ActionResult> {
  const user = await signedInAsSelf(ctx);
  const now = ctx.auth.clock.now();
  const name = readName(ctx.body);
  const expiresAt = readExpiry(ctx.body, o, now);
  const permissions = readPermissions(ctx, user);
  const roles = readRoles(ctx, user);
  const held = (await o.storage.listByUser(user.id)).filter((k) => usable(k, now)).length;
  if (held >= o.maxKeysPerUser)
    throw badRequest(`At most ${o.maxKeysPerUser} active API keys per user; revoke one first`);
  for (let attempt = 0; ; attempt++) {
    const { key, prefix, secret } = generateKey();
    const record: ApiKeyRecord = {
      id: randomString(16),
      prefix,
      secretHash: await hashSecret(secret),
      userId: user.id,
      name,
      permissions,
      roles,
      createdAt: new Date(now),
      expiresAt,
      revokedAt: null,
    };
    try {
      await o.storage.create(record);
      return { status: 201, json: { key, ...keyInfo(record) }, headers: NO_STORE };
    } catch (error) {
      // 48-bit prefixes collide rarely; draw again a few times.
      if (!(error instanceof StorageConflictError) || attempt >= 3) throw error;
    }
  }
}

/**
 * `POST /api-keys/revoke` (`id`): 200 `{ok: true}`, or 404 `NOT_FOUND` for a key that is not the user's or
 * already revoked.
 */
export async function revokeAction(ctx: RouteContext, o: ResolvedApiKeysOptions): Promise<ActionResult> {
  const user = await signedInAsSelf(ctx);
  const id = ctx.body.id;
  if (!id || id.length > 200) throw badRequest('id is required');
  const revoked = await o.storage.revoke(id, user.id, new Date(ctx.auth.clock.now()));
  if (!revoked) throw authError('NOT_FOUND', 'No such active API key');
  return { status: 200, json: { ok: true }, headers: NO_STORE };
}
