/**
 * The default no-JS pages of `emailOTP()`: sign in with a code, reset a password with a code, verify the signed-in
 * user's email with a code. Each asks for the address first (the form sends the code), then for the code.
 * @module
 * @internal
 */
import { escapeHtml, hidden, layout } from '../../plugin-kit.js';

/** What every page shows. */
export interface PageInput {
  basePath: string;
  csrfToken: string;
  /** The address the code went to; absent: ask for it first. */
  email?: string | undefined;
  callbackUrl?: string | undefined;
  error?: string | null | undefined;
  digits: number;
}

const alert = (error: string | null | undefined) =>
  error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '';
const form = (action: string, fields: string, body: string) =>
  `<form method="post" action="${escapeHtml(action)}">${fields}${body}</form>`;
const emailInput = (id: string) =>
  `<label for="${id}">Email</label><input id="${id}" name="email" type="email" autocomplete="email" required>`;
const codeInput = (digits: number) =>
  `<label for="eo-code">Code from the email</label><input id="eo-code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="${digits + 2}" required>`;
const back = (p: PageInput) => (p.callbackUrl ? hidden('callbackUrl', p.callbackUrl) : '');

/** The form that sends a code of `type` (to `email`, or to the address typed in). */
export function sendForm(p: PageInput, type: string, button: string): string {
  const fields = `${hidden('csrfToken', p.csrfToken)}${hidden('type', type)}${back(p)}`;
  const address = p.email === undefined ? emailInput(`eo-email-${type}`) : hidden('email', p.email);
  return form(`${p.basePath}/email-otp/send`, fields, `${address}<button type="submit">${escapeHtml(button)}</button>`);
}

/** `GET /email-otp/sign-in`: the address, then the code. */
export function signInPage(p: PageInput): string {
  if (p.email === undefined)
    return layout(
      'Sign in with a code',
      `<h1>Sign in with a code</h1>${alert(p.error)}${sendForm(p, 'sign-in', 'Email me a code')}`,
    );
  const fields = `${hidden('csrfToken', p.csrfToken)}${hidden('email', p.email)}${back(p)}`;
  return layout(
    'Sign in with a code',
    `<h1>Enter your code</h1><p>We sent a code to ${escapeHtml(p.email)}.</p>${alert(p.error)}` +
      form(`${p.basePath}/email-otp/sign-in`, fields, `${codeInput(p.digits)}<button type="submit">Sign in</button>`) +
      sendForm(p, 'sign-in', 'Send a new code'),
  );
}

/** `GET /email-otp/reset-password`: the address, then the code and the new password. */
export function resetPasswordPage(p: PageInput & { minPasswordLength: number }): string {
  if (p.email === undefined)
    return layout(
      'Reset your password',
      `<h1>Reset your password</h1>${alert(p.error)}${sendForm(p, 'forget-password', 'Email me a code')}`,
    );
  const fields = `${hidden('csrfToken', p.csrfToken)}${hidden('email', p.email)}${back(p)}`;
  return layout(
    'Reset your password',
    `<h1>Choose a new password</h1><p>If ${escapeHtml(p.email)} has an account, we sent it a code.</p>${alert(p.error)}` +
      form(
        `${p.basePath}/email-otp/reset-password`,
        fields,
        `${codeInput(p.digits)}<label for="eo-password">New password</label><input id="eo-password" name="password" type="password" autocomplete="new-password" minlength="${p.minPasswordLength}" required><button type="submit">Reset password</button>`,
      ) +
      sendForm(p, 'forget-password', 'Send a new code'),
  );
}

/** `GET /email-otp/verify-email` (signed in): send a code to the account's address, then enter it. */
export function verifyEmailPage(p: PageInput & { verified: boolean }): string {
  const body = p.verified
    ? `<p>${escapeHtml(p.email ?? '')} is verified.</p>`
    : `<p>We send a code to ${escapeHtml(p.email ?? '')}.</p>${alert(p.error)}` +
      sendForm(p, 'email-verification', 'Email me a code') +
      form(
        `${p.basePath}/email-otp/verify-email`,
        `${hidden('csrfToken', p.csrfToken)}${back(p)}`,
        `${codeInput(p.digits)}<button type="submit">Verify</button>`,
      );
  return layout('Verify your email', `<h1>Verify your email</h1>${body}`);
}
