/**
 * The list of `createAuth` option keys and `CreateAuthOptions` stay in step: both directions are type checks (the
 * typecheck fails on a key missing from either), and the set holds the list.
 */
import { expect, it } from 'vitest';
import type { CreateAuthOptions } from '../auth.js';
import { CREATE_AUTH_KEY_LIST, CREATE_AUTH_KEYS } from './create-auth-keys.js';

type Listed = (typeof CREATE_AUTH_KEY_LIST)[number];
type Missing = Exclude<keyof CreateAuthOptions, Listed>;
type Unknown = Exclude<Listed, keyof CreateAuthOptions>;
const complete: [Missing] extends [never] ? true : { missing: Missing } = true;
const known: [Unknown] extends [never] ? true : { unknown: Unknown } = true;

it('lists every option key of createAuth, and nothing else', () => {
  expect(complete && known).toBe(true);
  expect([...CREATE_AUTH_KEYS].sort()).toStrictEqual([...CREATE_AUTH_KEY_LIST].sort());
});
