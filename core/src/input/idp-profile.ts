/**
 * Hygiene of what an identity provider says about a user (an OAuth/OIDC profile, after the provider's `profile()`
 * mapping): the same parsers as typed input, with the one difference that a name is never a reason to fail.
 * @module
 */
import { authError } from '../errors/auth-error.js';
import { displayNameOrNull, parseEmailAddress, USER_NAME_MAX_LENGTH } from './text.js';

/** The fields of a profile this checks; the others pass through unchanged. */
interface ProfileText {
  email?: string | null;
  name?: string | null;
}

/**
 * Checks a mapped IdP profile before anything is looked up or stored.
 *
 * - `email`: when present and not blank, it must pass {@link parseEmailAddress}; otherwise the sign-in is refused
 *   (nothing is stripped: an address with a control, bidi or invisible character could name another account once
 *   cleaned). It is kept as the provider sent it, trimmed and NFC (as `parseEmailAddress` looks addresses up);
 *   storage compares addresses case-insensitively.
 * - `name`: parsed as a display name (trimmed, NFC, at most 200 characters); a name that would be refused is
 *   dropped (`null`) rather than failing the sign-in, since the user cannot fix it at the provider from here.
 * @throws AuthError `OAUTH_CALLBACK_ERROR` (400) when the address is not one.
 */
export function checkIdpProfile<T extends ProfileText>(profile: T): T {
  const { email, name } = profile;
  const checked = { ...profile };
  if (typeof email === 'string' && email.trim() !== '') {
    if (parseEmailAddress(email) === null)
      throw authError('OAUTH_CALLBACK_ERROR', "The provider's email address is not valid");
    checked.email = email.trim().normalize('NFC');
  }
  if (name !== undefined && name !== null) checked.name = displayNameOrNull(name, USER_NAME_MAX_LENGTH);
  return checked;
}
