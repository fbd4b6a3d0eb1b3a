/**
 * The default no-JS pages of the email-and-password routes: sign-up, forgot
 * password, reset password and "check your email", in the style of the
 * sign-in page.
 * @internal
 * @module
 */
import { escapeHtml, hidden, layout } from '../pages/html.js';
import type { LinkForm } from '../links/emailed-link.js';

interface FormInput {
  basePath: string;
  csrfToken: string;
  callbackUrl: string;
  error?: string | null;
}

const alert = (error: string | null | undefined) =>
  error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '';

function passwordField(
  id: string,
  label: string,
  name: string,
  min: number,
  max: number,
  autocomplete: string,
): string {
  return `<label for="${id}">${label}</label><input id="${id}" name="${name}" type="password" autocomplete="${autocomplete}" minlength="${min}" maxlength="${max}" required>`;
}

/** `GET /signup`. */
export function signUpPage(
  input: FormInput & {
    minPasswordLength: number;
    maxPasswordLength: number;
    fieldInputs?: string;
    /** A refused form's values, shown again (name and email; never the password). */
    values?: Readonly<Record<string, unknown>>;
  },
): string {
  const kept = (key: string) => {
    const value = input.values && Object.hasOwn(input.values, key) ? input.values[key] : undefined;
    return typeof value === 'string' && value !== '' ? ` value="${escapeHtml(value)}"` : '';
  };
  return layout(
    'Create an account',
    `<h1>Create an account</h1>${alert(input.error)}<form method="post" action="${escapeHtml(`${input.basePath}/signup`)}">${hidden('csrfToken', input.csrfToken)}${hidden('callbackUrl', input.callbackUrl)}` +
      `<label for="signup-name">Name</label><input id="signup-name" name="name" type="text" autocomplete="name" maxlength="100"${kept('name')}>` +
      `<label for="signup-email">Email</label><input id="signup-email" name="email" type="email" autocomplete="email"${kept('email')} required>` +
      passwordField(
        'signup-password',
        'Password',
        'password',
        input.minPasswordLength,
        input.maxPasswordLength,
        'new-password',
      ) +
      (input.fieldInputs ?? '') +
      `<button type="submit">Create account</button></form><p><a href="${escapeHtml(`${input.basePath}/signin`)}">Already have an account? Sign in</a></p>`,
  );
}

/** `GET /password/forgot`. */
export function forgotPasswordPage(input: FormInput): string {
  return layout(
    'Forgot password',
    `<h1>Forgot your password?</h1>${alert(input.error)}<p>Enter your email address and we will send you a link to choose a new password.</p><form method="post" action="${escapeHtml(`${input.basePath}/password/forgot`)}">${hidden('csrfToken', input.csrfToken)}${hidden('callbackUrl', input.callbackUrl)}` +
      `<label for="forgot-email">Email</label><input id="forgot-email" name="email" type="email" autocomplete="email" required><button type="submit">Send the link</button></form>`,
  );
}

/** `GET /password/reset?token=…`: the form the reset link opens (nothing is consumed by opening it). */
export function resetPasswordPage(input: {
  form: LinkForm;
  error?: string | null;
  minPasswordLength: number;
  maxPasswordLength: number;
}): string {
  return layout(
    'Choose a new password',
    `<h1>Choose a new password</h1>${alert(input.error)}<form method="post" action="${escapeHtml(input.form.action)}">${input.form.hiddenFields}` +
      passwordField(
        'reset-password',
        'New password',
        'password',
        input.minPasswordLength,
        input.maxPasswordLength,
        'new-password',
      ) +
      `<button type="submit">Set password</button></form>`,
  );
}

/** The page of an email-change link opened while signed out: sign in first, then come back to the link. */
export function signInToConfirmPage(input: { signInUrl: string; email: string }): string {
  return layout(
    'Sign in to confirm',
    `<h1>Sign in to confirm</h1><p>Sign in to the account whose email address becomes <strong>${escapeHtml(input.email)}</strong>; you come back here to confirm.</p><p><a href="${escapeHtml(input.signInUrl)}">Sign in</a></p>`,
  );
}

/** The "check your email" page after sign-up, a resend or a reset request: the same words whatever the address. */
export function checkEmailPage(input: { basePath: string; what: 'verify' | 'reset' | 'change' }): string {
  const line =
    input.what === 'reset'
      ? 'If an account uses this address, a link to choose a new password is on its way. It works once, for one hour.'
      : input.what === 'change'
        ? 'A link to confirm your new address is on its way to it. Open it while signed in to this account to make the change.'
        : 'If the address can receive mail, a link to confirm it is on its way. It works once, for 24 hours.';
  return layout(
    'Check your email',
    `<h1>Check your email</h1><p>${escapeHtml(line)}</p><p><a href="${escapeHtml(`${input.basePath}/signin`)}">Back to sign in</a></p>`,
  );
}
