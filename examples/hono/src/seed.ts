/**
 * Demo data for the authorization demo: three users (admin, editor, viewer)
 * and two tenants with memberships. Idempotent: running it again updates
 * roles and memberships and creates nothing twice.
 *
 * As a script (from examples/hono): `tsx --conditions=@framework/source src/seed.ts`,
 * on `DB_PATH` (default `.data/example.db`).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AuthError, passwordAccounts, createSqliteAdapter, type StorageAdapter } from '@framework/auth';
import type { TenantStorage } from '@framework/auth/tenant';
import { openDemoTenantStorage } from './authorization.js';

/** Every demo user's password. Demo data only: never seed real systems with it. */
export const DEMO_PASSWORD = 'demo-password';

/** The demo users and their roles. */
export const DEMO_USERS = [
  { email: 'admin@example.com', name: 'Ada Admin', role: 'admin' },
  { email: 'editor@example.com', name: 'Eddie Editor', role: 'editor' },
  { email: 'viewer@example.com', name: 'Vera Viewer', role: 'viewer' },
] as const;

type DemoEmail = (typeof DEMO_USERS)[number]['email'];

/** The demo tenants and who belongs to them, with which tenant role. */
export const DEMO_TENANTS: { slug: string; name: string; members: Partial<Record<DemoEmail, string>> }[] = [
  { slug: 'acme', name: 'Acme Inc.', members: { 'admin@example.com': 'owner', 'editor@example.com': 'member' } },
  {
    slug: 'globex',
    name: 'Globex Corporation',
    members: { 'admin@example.com': 'owner', 'viewer@example.com': 'member' },
  },
];

/** What {@link seed} created or found: user ids by email, tenant ids by slug. */
export interface SeedResult {
  users: Record<string, string>;
  tenants: Record<string, string>;
}

/** Registers a demo user (or finds them by email) and sets their RBAC role; their id. */
export async function ensureUser(adapter: StorageAdapter, input: (typeof DEMO_USERS)[number]): Promise<string> {
  let id: string;
  try {
    id = (await passwordAccounts(adapter).register({ email: input.email, password: DEMO_PASSWORD, name: input.name }))
      .id;
  } catch (error) {
    if (!(error instanceof AuthError && error.code === 'EMAIL_TAKEN')) throw error;
    id = (await adapter.getUserByEmail(input.email))!.id;
  }
  await adapter.updateUser(id, { role: input.role });
  return id;
}

/** Seeds the demo users (with roles) into `adapter` and the demo tenants (with memberships) into `tenants`. */
export async function seed(adapter: StorageAdapter, tenants: TenantStorage): Promise<SeedResult> {
  const result: SeedResult = { users: {}, tenants: {} };
  for (const user of DEMO_USERS) result.users[user.email] = await ensureUser(adapter, user);
  for (const demo of DEMO_TENANTS) {
    const tenant = (await tenants.get(demo.slug)) ?? (await tenants.create({ slug: demo.slug, name: demo.name }));
    result.tenants[demo.slug] = tenant.id;
    for (const [email, role] of Object.entries(demo.members)) {
      await tenants.addMember({ tenantId: tenant.id, userId: result.users[email]!, role });
    }
  }
  return result;
}

async function main(): Promise<void> {
  const filename = process.env.DB_PATH ?? '.data/example.db';
  const adapter = createSqliteAdapter({ filename });
  await adapter.migrate();
  const { tenants, close } = await openDemoTenantStorage(filename);
  try {
    await seed(adapter, tenants);
  } finally {
    await close();
    await adapter.close?.();
  }
  console.log(`Seeded ${filename}. Sign in with any of these (password "${DEMO_PASSWORD}"):`);
  for (const user of DEMO_USERS) console.log(`  ${user.email.padEnd(20)} role ${user.role}`);
  console.log(`Tenants: ${DEMO_TENANTS.map((t) => `/t/${t.slug}/`).join(', ')}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
