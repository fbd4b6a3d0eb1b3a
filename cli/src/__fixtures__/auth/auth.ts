// An app's auth module for `framework auth migrate --config`: its default export builds the auth.
import { createAuth, createSqliteAdapter } from '@framework/auth';

export default function auth() {
  return createAuth({
    adapter: createSqliteAdapter({ filename: process.env.FRAMEWORK_CLI_TEST_DB! }),
    providers: [],
    logger: { error: () => {}, warn: () => {} },
  });
}
