/**
 * The auth set-up every example shares: database sessions in SQLite,
 * email + password, and (when their inputs are given) magic links, passkeys
 * and the local "Dev OIDC" provider, with the demo's RBAC roles.
 */
import {
  createAuth,
  createOAuth2Provider,
  email,
  passkey,
  passwordAccounts,
  createSqliteAdapter,
  type Auth,
  type AuthPlugin,
  type PasswordAccounts,
  type Provider,
  type StorageAdapter,
  type User,
} from '@framework/auth';
import type { RateLimitConfig } from '@framework/auth/rate-limit';
import { apiKeys, createSqlApiKeyStorage } from '@framework/auth/plugins/api-keys';
import { createSqlTwoFactorStorage, twoFactor } from '@framework/auth/plugins/two-factor';
import { createSqlJwksStorage, jwt } from '@framework/auth/plugins/jwt';
import { createSqlOidcProviderStorage, oidcProvider } from '@framework/auth/plugins/oidc-provider';
import { admin, createSqlAdminStorage } from '@framework/auth/plugins/admin';
import { auditLog, createSqlAuditStorage } from '@framework/auth/plugins/audit-log';
import { createSqlInvitationStorage, organizations } from '@framework/auth/plugins/organizations';
import { createSqlSsoStorage, sso, type ResolveTxt } from '@framework/auth/plugins/sso';
import { emailOTP } from '@framework/auth/plugins/email-otp';
import { createSqlOtpStorage } from '@framework/auth/plugins/otp';
import { createSqlPhoneNumberStorage, phoneNumber } from '@framework/auth/plugins/phone-number';
import { createSqlUsernameStorage, username } from '@framework/auth/plugins/username';
import { anonymous, createSqlAnonymousStorage } from '@framework/auth/plugins/anonymous';
import { bearer } from '@framework/auth/plugins/bearer';
import { lastLoginMethod } from '@framework/auth/plugins/last-login-method';
import { multiSession } from '@framework/auth/plugins/multi-session';
import { createSqlTenantStorage } from '@framework/auth/tenant';
import { Kysely, SqliteDialect } from 'kysely';
import Database from 'better-sqlite3';
import { rbac } from './authorization.js';
import type { Mailer } from './mailer.js';

export interface ExampleAuthOptions {
  /** SQLite file. Default `.data/example.db`. */
  dbPath?: string;
  /** Secret of ≥ 32 characters; required when NODE_ENV=production. Turns on two-factor (and, with `baseURL`, jwt()). */
  secret?: string;
  /**
   * The app's public origin (`baseURL`: links and redirects use it, and it is the `iss` of access tokens). With a
   * `secret`, turns on `jwt()` (`GET /auth/token`, `GET /auth/jwks`). Default: none (the request's origin).
   */
  baseURL?: string;
  /** Sign-in rate limits. Default: the kit's (5 attempts per 15 minutes per IP and per account). */
  rateLimit?: RateLimitConfig;
  /** Offer magic links, sent through this mailer. */
  mailer?: Mailer;
  /** Offer passkeys for this origin (its host is the WebAuthn rpId). */
  origin?: string;
  /** Offer "Dev OIDC" against this local issuer. */
  devOidcIssuer?: string;
  /** Runs after a sign-up through the built-in `/auth/signup` (the examples queue a welcome mail). */
  onSignUp?: (user: User) => unknown;
  /**
   * The DNS TXT lookup `sso()` proves email domains with (on with a `secret`). Default: real DNS. The Hono
   * example passes its dev stand-in, which answers the token of the demo domain `acme.test`.
   */
  ssoResolveTxt?: ResolveTxt;
}

export interface ExampleAuth {
  auth: Auth;
  adapter: StorageAdapter;
  /** Password accounts over the same storage (the seed script creates its users with them). */
  passwords: PasswordAccounts;
  /** A Kysely on the same SQLite file, for the app's other tables (plugins, the dashboard's run history). */
  db: Kysely<any>;
  /** The optional parts that are on, so pages link only to what is served. */
  features: ExampleFeatures;
}

/** The optional parts of the example's auth that depend on its options. */
export interface ExampleFeatures {
  /** Passkeys (`/auth/passkey`): an `origin` was given. */
  passkeys: boolean;
  /** Two-factor (`/auth/two-factor`): a `secret` was given. */
  twoFactor: boolean;
  /** Access tokens (`/auth/token`, `/auth/jwks`): a `secret` and a `baseURL` were given. */
  accessTokens: boolean;
  /** Codes by email (`/auth/email-otp/...`): a `mailer` was given. */
  emailOtp: boolean;
}

function devOidc(issuer: string): Provider {
  return createOAuth2Provider({
    id: 'dev-oidc',
    name: 'Dev OIDC',
    issuer,
    clientId: 'example',
    clientSecret: 'example-secret',
    profile: (claims) => ({
      id: String(claims.sub),
      email: (claims.email as string | undefined) ?? null,
      name: (claims.name as string | undefined) ?? null,
      emailVerified: claims.email_verified === true ? new Date() : null,
    }),
  });
}

/** A plugin that tells the app about new accounts (a sign-in of a user it just created). */
function signUpListener(onSignUp: ExampleAuthOptions['onSignUp']): AuthPlugin<'signUpListener'> {
  return {
    id: 'signUpListener',
    hooks: {
      async afterSignIn(_ctx, { user, isNewUser, account }) {
        if (isNewUser && account?.type === 'credentials') await onSignUp?.(user);
      },
    },
  };
}

/** Builds the examples' auth and migrates its database. */
export async function createExampleAuth(options: ExampleAuthOptions = {}): Promise<ExampleAuth> {
  const dbPath = options.dbPath ?? '.data/example.db';
  const adapter = createSqliteAdapter({ filename: dbPath });
  await adapter.migrate();
  // The admin and audit plugins keep their tables in the same SQLite file, through a Kysely instance of ours.
  const pluginDb = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(dbPath) }) });
  const closeAdapter = adapter.close?.bind(adapter);
  adapter.close = async () => {
    await pluginDb.destroy();
    await closeAdapter?.();
  };
  const passwords = passwordAccounts(adapter);
  const { mailer } = options;
  // Email + password comes from `emailAndPassword` below: its provider, /auth/signup, verification and reset.
  const providers: Provider[] = [];
  if (mailer) {
    providers.push(
      email({
        from: 'login@example.test',
        sendVerificationRequest: ({ identifier, url }) =>
          mailer.send({
            to: identifier,
            subject: 'Your sign-in link',
            text: `Open this link to sign in:\n\n${url}\n\nIt works once, for 24 hours.`,
          }),
      }),
    );
  }
  const origin = options.origin ? new URL(options.origin) : undefined;
  if (options.devOidcIssuer) providers.push(devOidc(options.devOidcIssuer));
  const features: ExampleFeatures = {
    passkeys: origin !== undefined,
    twoFactor: options.secret !== undefined,
    accessTokens: options.secret !== undefined && options.baseURL !== undefined,
    emailOtp: mailer !== undefined,
  };
  // Teams (GET /auth/org) on the same tenant tables as the tenancy demo; organization roles are the demo's
  // RBAC roles: `admin` owns and manages, `editor` and `viewer` are members.
  const orgs = organizations({
    tenants: createSqlTenantStorage(pluginDb),
    invitations: createSqlInvitationStorage(pluginDb),
    roles: ['admin', 'editor', 'viewer'],
    ownerRole: 'admin',
    managerRoles: ['admin'],
    defaultRole: 'viewer',
    sendInvitation: async ({ email: to, organization, inviter, role, url }) => {
      if (!mailer) throw new Error('No mailer: invitations need one');
      await mailer.send({
        to,
        subject: `Join ${organization.name}`,
        text: `${inviter.name ?? inviter.email ?? 'Someone'} invites you to ${organization.name} as ${role}:\n\n${url}\n\nThe link works once, for 7 days.`,
      });
    },
  });
  const auth = createAuth({
    session: { strategy: 'database' },
    rbac,
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    ...(options.secret ? { secret: options.secret } : {}),
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    adapter,
    providers,
    emailAndPassword: {
      ...(mailer
        ? {
            sendVerificationEmail: ({ email: to, url }) =>
              mailer.send({
                to,
                subject: 'Confirm your email address',
                text: `Open this link to confirm your address:\n\n${url}\n\nIt works once, for 24 hours.`,
              }),
            sendResetPassword: ({ email: to, url }) =>
              mailer.send({
                to,
                subject: 'Choose a new password',
                text: `Open this link to choose a new password:\n\n${url}\n\nIt works once, for one hour.`,
              }),
            sendEmailChangeNotice: ({ email: to, newEmail, url, expires }) =>
              mailer.send({
                to,
                subject: 'Your email address was changed',
                text: `Your account now uses ${newEmail}. If that was not you, open this link to put this address back and sign out everywhere:\n\n${url}\n\nIt works until ${expires.toUTCString()}.`,
              }),
          }
        : {}),
    },
    // API keys (POST /auth/api-keys) and, with a secret, two-factor (GET /auth/two-factor) and, with a baseURL
    // too, access tokens (GET /auth/token, GET /auth/jwks): their tables live in the example's SQLite file.
    // admin() (GET /auth/admin: users, bans, impersonation) and auditLog() (GET /auth/admin/audit) are for the
    // `admin` role of ./authorization.ts; their tables live in the example's SQLite file.
    plugins: [
      ...(origin ? [passkey({ rpName: 'Framework example', rpId: origin.hostname, origin: origin.origin })] : []),
      admin({ storage: createSqlAdminStorage(pluginDb) }),
      orgs,
      // Enterprise SSO per organization (GET /auth/sso/sign-in, "Sign in with SSO" on the sign-in page; managers
      // at /auth/sso/manage): it encrypts the IdPs' client secrets with the secret, so it is on with one.
      ...(options.secret
        ? [
            sso({
              organizations: orgs,
              storage: createSqlSsoStorage(pluginDb),
              ...(options.ssoResolveTxt ? { resolveTxt: options.ssoResolveTxt } : {}),
            }),
          ]
        : []),
      auditLog({ storage: createSqlAuditStorage(pluginDb) }),
      apiKeys({ storage: createSqlApiKeyStorage(pluginDb) }),
      ...(features.twoFactor
        ? [twoFactor({ storage: createSqlTwoFactorStorage(pluginDb), issuer: 'Framework example' })]
        : []),
      ...(features.accessTokens
        ? [
            jwt({ storage: createSqlJwksStorage(pluginDb), audience: `${options.baseURL}/api` }),
            // The app as an OpenID Provider (issuer `${baseURL}/auth`, discovery at
            // /auth/.well-known/openid-configuration) with one demo public client: a CLI that listens on
            // 127.0.0.1:8765 and signs in with PKCE. "Apps with access" is at /auth/oauth2/consents.
            oidcProvider({
              storage: createSqlOidcProviderStorage(pluginDb),
              clients: [
                {
                  clientId: 'example-cli',
                  name: 'Example CLI (demo)',
                  redirectUris: ['http://127.0.0.1:8765/callback'],
                },
              ],
            }),
          ]
        : []),
      // Codes by email (GET /auth/signin offers "Email me a sign-in code"; /auth/email-otp/...), kept hashed in the
      // example's SQLite file. Captcha and the breached-password check stay off: they need a provider key or the
      // network (see the README).
      ...(mailer
        ? [
            emailOTP({
              storage: createSqlOtpStorage(pluginDb),
              sendVerificationOTP: ({ email: to, otp, type }) =>
                mailer.send({
                  to,
                  subject: type === 'sign-in' ? 'Your sign-in code' : 'Your code',
                  text: `Your code is ${otp}. It works once, for 5 minutes.`,
                }),
            }),
            // Codes by SMS (/auth/phone-number/...): in development the "text message" lands in the dev outbox,
            // addressed to the number; wire sendOTP to your SMS provider in production.
            phoneNumber({
              storage: createSqlPhoneNumberStorage(pluginDb),
              otpStorage: createSqlOtpStorage(pluginDb),
              sendOTP: ({ phoneNumber: to, code }) =>
                mailer.send({
                  to,
                  subject: 'Text message',
                  text: `Your code is ${code}. It works once, for 5 minutes.`,
                }),
            }),
          ]
        : []),
      // Usernames (sign in with a name and password; /auth/username to choose one), guests ("Continue as guest"
      // on the sign-in page; signing up later keeps the account and deletes the guest), bearer sessions for
      // clients without cookies, and the "Last used" mark on the sign-in page.
      username({ storage: createSqlUsernameStorage(pluginDb) }),
      anonymous({ storage: createSqlAnonymousStorage(pluginDb) }),
      bearer(),
      lastLoginMethod(),
      // Several accounts in one browser: signing in as another user keeps the first one signed in;
      // GET /auth/multi-session lists them with Switch and Sign out buttons (each account its own session).
      multiSession(),
      signUpListener(options.onSignUp),
    ],
  });
  await auth.migrate();
  return { auth, adapter, passwords, db: pluginDb, features };
}
