/**
 * Every catalog (the core's and each built-in plugin's, registered through the kit's `defineMessages`) has exactly
 * the English keys in every language, with the same `{placeholders}`; the English `code.*` messages are the error
 * tables' own, so a code reads the same with or without a catalog.
 */
import { describe, expect, it } from 'vitest';
import { lookupErrorCode } from '../errors/registry.js';
import { placeholdersOf, registeredCatalogs } from './catalog.js';
import { BUILT_IN_LOCALES } from './options.js';
// Load every catalog the built-in pages use (each registers itself).
import './core/index.js';
import '../plugins/otp/messages.js';
import '../plugins/email-otp/messages.js';
import '../plugins/phone-number/messages.js';
import '../plugins/two-factor/messages.js';
import '../plugins/two-factor/errors.js';
import '../plugins/username/messages.js';
import '../plugins/passkey/messages.js';
import '../plugins/anonymous/messages.js';
import '../plugins/admin/messages.js';
import '../plugins/organizations/messages.js';
import '../plugins/username/errors.js';
import '../plugins/email-otp/errors.js';
import '../plugins/otp/errors.js';
import '../plugins/phone-number/errors.js';
import '../plugins/sso/messages.js';
import '../plugins/sso/errors.js';
import '../plugins/multi-session/messages.js';
import '../plugins/oidc-provider/messages.js';

const EXPECTED = [
  'core',
  'otp',
  'emailOtp',
  'phoneNumber',
  'twoFactor',
  'username',
  'passkey',
  'anonymous',
  'admin',
  'organizations',
  'sso',
  'multiSession',
  'oidcProvider',
];

describe('the message catalogs', () => {
  const catalogs = registeredCatalogs();

  it('include the core and the built-in plugins', () => {
    for (const id of EXPECTED) expect(catalogs.has(id), id).toBe(true);
  });

  for (const id of EXPECTED) {
    describe(id, () => {
      it('have every built-in language with exactly the English keys', () => {
        const table = catalogs.get(id)!;
        const keys = Object.keys(table.en).sort();
        expect(keys.length).toBeGreaterThan(0);
        for (const lang of BUILT_IN_LOCALES)
          expect(Object.keys(table[lang] ?? {}).sort(), `${id}/${lang}`).toStrictEqual(keys);
      });

      it('keep the English placeholders in every language, and no message is empty', () => {
        const table = catalogs.get(id)!;
        for (const [key, english] of Object.entries(table.en))
          for (const lang of BUILT_IN_LOCALES) {
            const text = table[lang]?.[key] ?? '';
            expect(text.trim(), `${id}/${lang}/${key}`).not.toBe('');
            expect(placeholdersOf(text), `${id}/${lang}/${key}`).toStrictEqual(placeholdersOf(english));
          }
      });

      it('give the English message of each error code exactly as its error table does', () => {
        const table = catalogs.get(id)!;
        for (const [key, english] of Object.entries(table.en)) {
          if (!key.startsWith('code.')) continue;
          expect(lookupErrorCode(key.slice('code.'.length))?.message, key).toBe(english);
        }
      });
    });
  }

  it('hold no message id twice across catalogs (ids are shared with the app overrides)', () => {
    const seen = new Map<string, string>();
    for (const [id, table] of catalogs)
      for (const key of Object.keys(table.en)) {
        expect(seen.get(key), `${key} in ${id} and ${seen.get(key)}`).toBeUndefined();
        seen.set(key, id);
      }
  });
});
