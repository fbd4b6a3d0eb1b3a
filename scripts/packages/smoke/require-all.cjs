/* eslint-disable @typescript-eslint/no-require-imports -- this file is the CommonJS consumer under test */
// CommonJS consumer: every dual package's entry points load through `require`, and errors keep one identity
// across the CJS and ESM builds.
const assert = require('node:assert/strict');
const { both } = require('./entries.json');

for (const entry of both) {
  const mod = require(entry);
  assert.ok(Object.keys(mod).length > 0, `${entry} exports nothing`);
}
const auth = require('@framework/auth');
assert.equal(typeof auth.createAuth, 'function');
assert.ok(new (require('@framework/auth/tenant').TenantNotFoundError)() instanceof auth.AuthError);
import('@framework/auth').then((esm) => {
  assert.ok(new esm.ForbiddenError() instanceof auth.ForbiddenError, 'ESM error is instanceof the CJS class');
  assert.ok(new auth.UnauthenticatedError() instanceof esm.AuthError, 'CJS error is instanceof the ESM class');
  console.log(`require: ${both.length} entry points load`);
});
