// The core README's shape: `export const auth = createAuth(...)`, no default export.
import { createAuth, createSqliteAdapter } from '@framework/auth';

export const auth = createAuth({
  adapter: createSqliteAdapter({ filename: process.env.FRAMEWORK_CLI_TEST_DB! }),
  providers: [],
  logger: { error: () => {}, warn: () => {} },
});
