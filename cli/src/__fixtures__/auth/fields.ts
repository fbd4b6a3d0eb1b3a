// An app's auth with custom user fields, for `framework auth generate --config`: a named `auth` export.
import { createAuth, createSqliteAdapter } from '@framework/auth';

export const auth = createAuth({
  adapter: createSqliteAdapter({ filename: ':memory:' }),
  providers: [],
  logger: { error: () => {}, warn: () => {} },
  user: {
    additionalFields: {
      planTier: { type: 'string', defaultValue: 'free' },
      handle: { type: 'string', unique: true },
    },
  },
});
