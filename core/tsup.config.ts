import { packageBuild } from '../tsup.shared';

export default packageBuild({
  index: 'src/index.ts',
  convention: 'src/convention.ts',
  middleware: 'src/middleware.ts',
  'plugin-kit': 'src/plugin-kit.ts',
  tenant: 'src/tenant.ts',
  'rate-limit': 'src/rate-limit.ts',
  'rate-limit-upstash': 'src/rate-limit-upstash.ts',
  'argon2-wasm': 'src/argon2-wasm.ts',
  redis: 'src/redis.ts',
  client: 'src/client.ts',
  'plugins/jwt': 'src/plugins/jwt/index.ts',
  'plugins/captcha': 'src/plugins/captcha/index.ts',
  'plugins/have-i-been-pwned': 'src/plugins/have-i-been-pwned/index.ts',
  'plugins/api-keys': 'src/plugins/api-keys/index.ts',
  'plugins/two-factor': 'src/plugins/two-factor/index.ts',
  'plugins/admin': 'src/plugins/admin/index.ts',
  'plugins/organizations': 'src/plugins/organizations/index.ts',
  'plugins/audit-log': 'src/plugins/audit-log/index.ts',
  drizzle: 'src/storage/drizzle/index.ts',
});
