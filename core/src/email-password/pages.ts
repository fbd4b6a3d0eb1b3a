/**
 * The default no-JS pages of the email-and-password routes: sign-up, forgot
 * password, reset password and "check your email", in the style of the
 * sign-in page.
 * @internal
 * @module
 */
import { escapeHtml, hidden, layout } from '../pages/html.js';
import type { LinkForm } from '../links/emailed-link.js';
import type { CoreTranslator } from '../i18n/core/index.js';

interface FormInput {
  /** The page's strings in the request's language. */
  t: CoreTranslator;
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
  return `<label for="${id}">${escapeHtml(label)}</label><input id="${id}" name="${name}" type="password" autocomplete="${autocomplete}" minlength="${min}" maxlength="${max}" required>`;
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
  const { t } = input;
  return layout(
    t('signUp.title'),
    `<h1>${escapeHtml(t('signUp.title'))}</h1>${alert(input.error)}<form method="post" action="${escapeHtml(`${input.basePath}/signup`)}">${hidden('csrfToken', input.csrfToken)}${hidden('callbackUrl', input.callbackUrl)}` +
      `<label for="signup-name">${escapeHtml(t('signUp.name'))}</label><input id="signup-name" name="name" type="text" autocomplete="name" maxlength="100"${kept('name')}>` +
      `<label for="signup-email">${escapeHtml(t('common.email'))}</label><input id="signup-email" name="email" type="email" autocomplete="email"${kept('email')} required>` +
      passwordField(
        'signup-password',
        t('common.password'),
        'password',
        input.minPasswordLength,
        input.maxPasswordLength,
        'new-password',
      ) +
      (input.fieldInputs ?? '') +
      `<button type="submit">${escapeHtml(t('signUp.button'))}</button></form><p><a href="${escapeHtml(`${input.basePath}/signin`)}">${escapeHtml(t('signUp.haveAccount'))}</a></p>`,
    t.lang,
  );
}

/** `GET /password/forgot`. */
export function forgotPasswordPage(input: FormInput): string {
  const { t } = input;
  return layout(
    t('forgotPassword.title'),
    `<h1>${escapeHtml(t('forgotPassword.heading'))}</h1>${alert(input.error)}<p>${escapeHtml(t('forgotPassword.text'))}</p><form method="post" action="${escapeHtml(`${input.basePath}/password/forgot`)}">${hidden('csrfToken', input.csrfToken)}${hidden('callbackUrl', input.callbackUrl)}` +
      `<label for="forgot-email">${escapeHtml(t('common.email'))}</label><input id="forgot-email" name="email" type="email" autocomplete="email" required><button type="submit">${escapeHtml(t('forgotPassword.button'))}</button></form>`,
    t.lang,
  );
}

/** `GET /password/reset?token=…`: the form the reset link opens (nothing is consumed by opening it). */
export function resetPasswordPage(input: {
  t: CoreTranslator;
  form: LinkForm;
  error?: string | null;
  minPasswordLength: number;
  maxPasswordLength: number;
}): string {
  const { t } = input;
  return layout(
    t('resetPassword.title'),
    `<h1>${escapeHtml(t('resetPassword.title'))}</h1>${alert(input.error)}<form method="post" action="${escapeHtml(input.form.action)}">${input.form.hiddenFields}` +
      passwordField(
        'reset-password',
        t('resetPassword.password'),
        'password',
        input.minPasswordLength,
        input.maxPasswordLength,
        'new-password',
      ) +
      `<button type="submit">${escapeHtml(t('resetPassword.button'))}</button></form>`,
    t.lang,
  );
}

/** The page of an email-change link opened while signed out: sign in first, then come back to the link. */
export function signInToConfirmPage(input: { t: CoreTranslator; signInUrl: string; email: string }): string {
  const { t } = input;
  return layout(
    t('signInToConfirm.title'),
    `<h1>${escapeHtml(t('signInToConfirm.title'))}</h1><p>${t.html('signInToConfirm.text', { email: input.email }, ['email'])}</p><p><a href="${escapeHtml(input.signInUrl)}">${escapeHtml(t('signInToConfirm.link'))}</a></p>`,
    t.lang,
  );
}

const CHECK_EMAIL_LINES = {
  verify: 'checkEmail.verify',
  reset: 'checkEmail.reset',
  change: 'checkEmail.change',
} as const;

/** The "check your email" page after sign-up, a resend or a reset request: the same words whatever the address. */
export function checkEmailPage(input: {
  t: CoreTranslator;
  basePath: string;
  what: 'verify' | 'reset' | 'change';
}): string {
  const { t } = input;
  return layout(
    t('checkEmail.title'),
    `<h1>${escapeHtml(t('checkEmail.title'))}</h1><p>${escapeHtml(t(CHECK_EMAIL_LINES[input.what]))}</p><p><a href="${escapeHtml(`${input.basePath}/signin`)}">${escapeHtml(t('common.backToSignIn'))}</a></p>`,
    t.lang,
  );
}
