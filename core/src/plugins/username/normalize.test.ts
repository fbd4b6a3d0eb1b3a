/** The fold and the checks of usernames, on their own: NFKC + case, invisibles, mixed scripts, lengths, the rule. */
import { describe, expect, it } from 'vitest';
import { foldUsername, mixesScripts, parseUsername, type UsernameRules } from './normalize.js';

const rules: UsernameRules = { minLength: 3, maxLength: 30 };

describe('parseUsername', () => {
  it('folds width, compatibility forms and case to one key, keeping the name as typed', () => {
    expect(parseUsername('  Ada_Lovelace ', rules)).toStrictEqual({
      username: 'ada_lovelace',
      displayUsername: 'Ada_Lovelace',
    });
    expect(parseUsername('ＡＤＡ', rules)?.username).toBe('ada');
    expect(parseUsername('ﬁsh', rules)?.username).toBe('fish');
    expect(foldUsername('ＡＤＡ')).toBe(foldUsername('ada'));
  });

  it('refuses invisible, format and bidi characters even when normalize would strip them', () => {
    const stripping: UsernameRules = { ...rules, normalize: (n) => n.replace(/[^a-z0-9_.]/g, '') };
    for (const name of ['a\u200Bda', 'ada\u2060', '\uFEFFada', '\u202Eada', 'a\u2066da', 'a\u00ADda', 'a\u034Fda'])
      expect(parseUsername(name, stripping)).toBeNull();
    expect(parseUsername('a-da', stripping)?.username).toBe('ada');
  });

  it('refuses letters of look-alike scripts mixed in one name, whatever the validator allows', () => {
    const any: UsernameRules = { ...rules, validator: () => true };
    expect(mixesScripts('\u0430da')).toBe(true);
    expect(parseUsername('\u0430da', any)).toBeNull();
    expect(parseUsername('p\u0430yp\u0430l', any)).toBeNull();
    expect(parseUsername('\u0430\u0434\u0430', any)?.username).toBe('\u0430\u0434\u0430');
    // The default rule refuses any non-ASCII name, so no whole-script look-alike either.
    expect(parseUsername('\u0430\u0440\u0440\u04cf\u0435', rules)).toBeNull();
  });

  it('counts the folded length in code points, and applies the default rule', () => {
    expect(parseUsername('ab', rules)).toBeNull();
    expect(parseUsername('a'.repeat(30), rules)?.username).toHaveLength(30);
    expect(parseUsername('a'.repeat(31), rules)).toBeNull();
    for (const bad of ['.ada', 'ada.', 'a..da', 'a-da', 'a@da', '']) expect(parseUsername(bad, rules)).toBeNull();
    expect(parseUsername('a.d_a9', rules)?.username).toBe('a.d_a9');
    expect(parseUsername(42, rules)).toBeNull();
  });
});
