/**
 * argon2id on every runtime: the PHC shape, verification, and which
 * implementation the runtime picked.
 * @module
 */
import { hashPassword, passwordHasherName, verifyPassword } from '../../../core/src/password.js';
import { check, PORTABLE_PASSWORD, same, type Scenario } from '../scenario.js';

/** What each runtime is expected to use. */
const EXPECTED_HASHER: Record<string, 'native' | 'wasm'> = { node20: 'native', node24: 'native', workerd: 'wasm' };

export const passwordScenarios: Scenario[] = [
  {
    name: 'password: argon2id PHC (m=19456, t=2, p=1) hashes and verifies',
    async run(ctx) {
      const stored = await hashPassword(PORTABLE_PASSWORD);
      check(
        /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/.test(stored),
        `unexpected PHC string ${stored}`,
      );
      same(await verifyPassword(PORTABLE_PASSWORD, stored), true, 'right password');
      same(await verifyPassword('wrong', stored), false, 'wrong password');
      same(await verifyPassword(PORTABLE_PASSWORD, '$argon2id$garbage'), false, 'malformed hash');
      ctx.artifacts.passwordHash = stored;
    },
  },
  {
    name: 'password: the runtime picks its argon2 implementation',
    async run(ctx) {
      const expected = EXPECTED_HASHER[ctx.runtime];
      if (expected) same(await passwordHasherName(), expected, 'argon2 implementation');
    },
  },
];
