/**
 * `POST {basePath}/account/update`: the signed-in user changes their name, image and custom fields (the ones
 * with `input` not false). CSRF-checked like every POST of the kit.
 * @module
 * @internal
 */
import { badRequest } from '../errors.js';
import { authError } from '../errors/auth-error.js';
import { parseDisplayName, USER_NAME_MAX_LENGTH } from '../input/text.js';
import type { ActionResult, RouteContext } from '../contract/types.js';
import { publicUser, resolveCallbackUrl } from '../routes/helpers.js';
import { done, signedInAsSelf, storageOf } from '../routes/account/signed-in.js';
import { userFieldsOf } from './bind.js';
import { fieldInput } from './input.js';
import { USER_FIELD_ERRORS } from './errors.js';
import { answeringFieldConflicts } from './storage-conflicts.js';

/** Body keys the route reads besides the custom fields. */
const OWN_KEYS: ReadonlySet<string> = new Set(['csrfToken', 'callbackUrl', 'name', 'image']);
/** The longest image URL, in characters. */
const IMAGE_URL_MAX_LENGTH = 2048;

/** An `image` value: an absolute http(s) URL, or null for an empty one (clears it). */
function parseImage(raw: string): string | null {
  const text = raw.trim();
  if (text === '') return null;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || text.length > IMAGE_URL_MAX_LENGTH)
    throw badRequest(`\`image\` must be an http(s) URL of at most ${IMAGE_URL_MAX_LENGTH} characters`);
  return url.href;
}

/**
 * Updates the caller's `name` (an empty one clears it), `image` (an http(s) URL; empty clears) and custom fields
 * (parsed from their text form; empty clears, refused for `required` fields). Keys left out stay unchanged.
 * Answers `{ ok: true, user }` (the user as `GET /session` shows it) to JSON clients, a 303 to `callbackUrl`
 * (default `/`) otherwise.
 * @throws AuthError `UNAUTHENTICATED` (401) signed out; `IMPERSONATION_RESTRICTED` (403) during an
 *   impersonation; `USER_FIELD_UNKNOWN` (400) for a key that is neither `name`, `image` nor a custom field;
 *   `USER_FIELD_NOT_INPUT`, `USER_FIELD_REQUIRED`, `USER_FIELD_INVALID` (400); `INVALID_REQUEST` (400) for a
 *   bad name or image, or nothing to change; `USER_FIELD_TAKEN` (409).
 */
export async function updateAccountAction(ctx: RouteContext): Promise<ActionResult> {
  const caller = await signedInAsSelf(ctx);
  const adapter = storageOf(ctx);
  const fields = userFieldsOf(ctx.auth.config);
  const names = new Set(fields.map((f) => f.name));
  for (const key of Object.keys(ctx.body))
    if (!OWN_KEYS.has(key) && !names.has(key))
      throw USER_FIELD_ERRORS.error('USER_FIELD_UNKNOWN', `"${key}" is not a field this route updates`);
  const patch: Record<string, unknown> = fieldInput(ctx.body, fields, 'update');
  if (ctx.body.name !== undefined) patch.name = parseDisplayName(ctx.body.name, { maxLength: USER_NAME_MAX_LENGTH });
  if (ctx.body.image !== undefined) patch.image = parseImage(ctx.body.image);
  if (Object.keys(patch).length === 0) throw badRequest('Send `name`, `image` or a custom field to change');
  const updated = await answeringFieldConflicts(fields, () => adapter.updateUser(caller.user.id, patch));
  if (!updated) throw authError('UNAUTHENTICATED', 'Sign in first');
  return done(ctx, { user: publicUser(updated) }, await resolveCallbackUrl(ctx, ctx.body.callbackUrl), caller.cookies);
}
