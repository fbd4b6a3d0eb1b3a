/**
 * Provider records. A provider is a plain, frozen object made by a factory
 * (`credentials(...)`, `email(...)`, `passkey(...)` and the OAuth presets)
 * and checked by `defineProvider`. A provider may bring a plugin (its own
 * routes, as passkeys do) and its part of the sign-in page (`signInForm`).
 * @module
 */
import type { User } from '../types.js';
import type { OAuthProvider } from './oauth/types.js';
import type { EmailProvider } from './email-types.js';

/** What a provider's user code receives besides its input. */
export interface AuthContext {
  /** Environment bindings: `createAuth({ env })`, else `process.env` where it exists. */
  env: Record<string, unknown>;
  /** The incoming request (read-only; its body has been consumed). */
  request: Request;
}

/** One field of the credentials form. */
export interface CredentialInput {
  label: string;
  type: 'text' | 'email' | 'password';
  placeholder?: string;
  /** When true, a request without this field is refused with 400 `INVALID_REQUEST`. Default false. */
  required?: boolean;
}

/** Options of the credentials provider (spec: Providers › credentials). */
export interface CredentialsOptions {
  /** Provider id. Default `credentials`. */
  id?: string;
  /** Display name on the sign-in page. Default `Credentials`. */
  name?: string;
  /** The form fields, keyed by field name. */
  credentials: Record<string, CredentialInput>;
  /**
   * Checks the submitted fields. Return the user to sign in, or null to refuse
   * (answered as `INVALID_CREDENTIALS`). Throwing `InvalidCredentialsError`
   * also refuses; any other throw is a server error (500 `CALLBACK_ERROR`, logged without details sent).
   */
  authorize(credentials: Record<string, string>, ctx: AuthContext): Promise<User | null> | User | null;
}

/** A configured credentials provider. */
export interface CredentialsProvider {
  readonly id: string;
  readonly name: string;
  readonly type: 'credentials';
  readonly credentials: Readonly<Record<string, CredentialInput>>;
  authorize(credentials: Record<string, string>, ctx: AuthContext): Promise<User | null> | User | null;
  /**
   * Message ids the default sign-in page translates `name` and the fields' labels with (from any registered catalog
   * or the app's `locale.messages`; the plain strings when none has them). `emailAndPassword()`'s provider sets them.
   */
  readonly messageIds?: { readonly name?: string; readonly labels?: Readonly<Record<string, string>> };
}

/** Any configured provider. */
export type Provider = CredentialsProvider | OAuthProvider | EmailProvider;
