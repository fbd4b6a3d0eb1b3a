import { describe, expect, it } from 'vitest';
import { AuthError } from '../../plugin-kit.js';
import { emailDomain, parseDomain } from './domains.js';
import { mappedRole, parseRoleMapping } from './providers.js';

const ROLES = ['owner', 'admin', 'member'] as const;

describe('role mapping', () => {
  const mapping = { attribute: 'groups', values: { staff: 'member', admins: 'admin', root: 'superuser' } };

  it('gives the highest role any value maps to, from a list or a single value', () => {
    expect(mappedRole(mapping, { groups: ['staff', 'admins'] }, ROLES, 'member')).toBe('admin');
    expect(mappedRole(mapping, { groups: 'admins' }, ROLES, 'member')).toBe('admin');
  });

  it('falls back to the default for no match, a role outside the organization roles, or no mapping', () => {
    expect(mappedRole(mapping, { groups: ['root'] }, ROLES, 'member')).toBe('member');
    expect(mappedRole(mapping, { groups: ['toString', '__proto__'] }, ROLES, 'member')).toBe('member');
    expect(mappedRole({ ...mapping, defaultRole: 'admin' }, {}, ROLES, 'member')).toBe('admin');
    expect(mappedRole({ ...mapping, defaultRole: 'nope' }, {}, ROLES, 'member')).toBe('member');
    expect(mappedRole(null, { groups: ['admins'] }, ROLES, 'member')).toBe('member');
  });

  it('reads the registration form: lines or JSON, roles checked', () => {
    expect(parseRoleMapping({ roleAttribute: 'groups', roleValues: 'a=admin\r\nb = member\n' }, ROLES)).toEqual({
      attribute: 'groups',
      values: { a: 'admin', b: 'member' },
    });
    expect(parseRoleMapping({ roleAttribute: 'g', roleValues: '{"x":"owner"}', defaultRole: 'admin' }, ROLES)).toEqual({
      attribute: 'g',
      values: { x: 'owner' },
      defaultRole: 'admin',
    });
    expect(parseRoleMapping({}, ROLES)).toBeNull();
    for (const body of <Record<string, string>[]>[
      { roleAttribute: 'g', roleValues: 'a=superuser' },
      { roleValues: 'a=admin' },
      { roleAttribute: 'g', roleValues: '{not json' },
      { roleAttribute: 'g', roleValues: 'no-equals-sign' },
    ])
      expect(() => parseRoleMapping(body, ROLES)).toThrow(AuthError);
  });
});

describe('domain names', () => {
  it('lower-cases and drops a trailing dot', () => {
    expect(parseDomain(' Acme.COM. ')).toBe('acme.com');
    expect(parseDomain('xn--bcher-kva.example')).toBe('xn--bcher-kva.example');
    expect(emailDomain('Ada@Sub.Acme.com')).toBe('sub.acme.com');
  });

  it('refuses what is not a host name of two labels or more', () => {
    for (const bad of [
      'com',
      'acme..com',
      '-acme.com',
      'acme-.com',
      'a_b.com',
      '10.0.0.1',
      'acme.com/x',
      '',
      'a'.repeat(64) + '.com',
    ])
      expect(() => parseDomain(bad), bad).toThrow(AuthError);
    expect(emailDomain('no-at-sign')).toBeNull();
    expect(emailDomain('x@localhost')).toBeNull();
  });
});
