/**
 * The default no-JS pages of `emailOTP()`: sign in with a code, reset a password with a code, verify the signed-in
 * user's email with a code. Each asks for the address first (the form sends the code), then for the code.
 * @module
 * @internal
 */
import { escapeHtml, hidden, layout, type PageLocale } from '../../plugin-kit.js';
import { otpMessages } from '../otp/index.js';
import { emailOtpMessages } from './messages.js';

/** What every page shows. */
export interface PageInput {
  basePath: string;
  csrfToken: string;
  /** The address the code went to; absent: ask for it first. */
  email?: string | undefined;
  callbackUrl?: string | undefined;
  error?: string | null | undefined;
  digits: number;
  /** The page's language (English without). */
  locale?: PageLocale | undefined;
}

const alert = (error: string | null | undefined) =>
  error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '';
const form = (action: string, fields: string, body: string) =>
  `<form method="post" action="${escapeHtml(action)}">${fields}${body}</form>`;
const back = (p: PageInput) => (p.callbackUrl ? hidden('callbackUrl', p.callbackUrl) : '');
const button = (label: string) => `<button type="submit">${escapeHtml(label)}</button>`;

/** The page's strings: this plugin's and the shared code-page ones. */
function texts(p: PageInput) {
  return { t: emailOtpMessages.for(p.locale), otp: otpMessages.for(p.locale) };
}

function codeInput(p: PageInput): string {
  const label = escapeHtml(emailOtpMessages.for(p.locale)('emailOtp.code'));
  return `<label for="eo-code">${label}</label><input id="eo-code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="${p.digits + 2}" required>`;
}

/** The form that sends a code of `type` (to `email`, or to the address typed in); `label` is the button's text. */
export function sendForm(p: PageInput, type: string, label: string): string {
  const fields = `${hidden('csrfToken', p.csrfToken)}${hidden('type', type)}${back(p)}`;
  const id = `eo-email-${type}`;
  const address =
    p.email === undefined
      ? `<label for="${id}">${escapeHtml(emailOtpMessages.for(p.locale)('emailOtp.email'))}</label><input id="${id}" name="email" type="email" autocomplete="email" required>`
      : hidden('email', p.email);
  return form(`${p.basePath}/email-otp/send`, fields, `${address}${button(label)}`);
}

/** `GET /email-otp/sign-in`: the address, then the code. */
export function signInPage(p: PageInput): string {
  const { t, otp } = texts(p);
  const title = t('emailOtp.signIn.title');
  if (p.email === undefined)
    return layout(
      title,
      `<h1>${escapeHtml(title)}</h1>${alert(p.error)}${sendForm(p, 'sign-in', t('emailOtp.sendCode'))}`,
      t.lang,
    );
  const fields = `${hidden('csrfToken', p.csrfToken)}${hidden('email', p.email)}${back(p)}`;
  return layout(
    title,
    `<h1>${escapeHtml(otp('otp.enterCode'))}</h1><p>${escapeHtml(t('emailOtp.sent', { email: p.email }))}</p>${alert(p.error)}` +
      form(`${p.basePath}/email-otp/sign-in`, fields, `${codeInput(p)}${button(otp('otp.signIn'))}`) +
      sendForm(p, 'sign-in', otp('otp.sendNewCode')),
    t.lang,
  );
}

/** `GET /email-otp/reset-password`: the address, then the code and the new password. */
export function resetPasswordPage(p: PageInput & { minPasswordLength: number }): string {
  const { t, otp } = texts(p);
  const title = t('emailOtp.reset.title');
  if (p.email === undefined)
    return layout(
      title,
      `<h1>${escapeHtml(title)}</h1>${alert(p.error)}${sendForm(p, 'forget-password', t('emailOtp.sendCode'))}`,
      t.lang,
    );
  const fields = `${hidden('csrfToken', p.csrfToken)}${hidden('email', p.email)}${back(p)}`;
  return layout(
    title,
    `<h1>${escapeHtml(t('emailOtp.reset.heading'))}</h1><p>${escapeHtml(t('emailOtp.reset.sent', { email: p.email }))}</p>${alert(p.error)}` +
      form(
        `${p.basePath}/email-otp/reset-password`,
        fields,
        `${codeInput(p)}<label for="eo-password">${escapeHtml(t('emailOtp.reset.password'))}</label><input id="eo-password" name="password" type="password" autocomplete="new-password" minlength="${p.minPasswordLength}" required>${button(t('emailOtp.reset.button'))}`,
      ) +
      sendForm(p, 'forget-password', otp('otp.sendNewCode')),
    t.lang,
  );
}

/** `GET /email-otp/verify-email` (signed in): send a code to the account's address, then enter it. */
export function verifyEmailPage(p: PageInput & { verified: boolean }): string {
  const { t, otp } = texts(p);
  const email = p.email ?? '';
  const body = p.verified
    ? `<p>${escapeHtml(t('emailOtp.verify.done', { email }))}</p>`
    : `<p>${escapeHtml(t('emailOtp.verify.text', { email }))}</p>${alert(p.error)}` +
      sendForm(p, 'email-verification', t('emailOtp.sendCode')) +
      form(
        `${p.basePath}/email-otp/verify-email`,
        `${hidden('csrfToken', p.csrfToken)}${back(p)}`,
        `${codeInput(p)}${button(otp('otp.verify'))}`,
      );
  const title = t('emailOtp.verify.title');
  return layout(title, `<h1>${escapeHtml(title)}</h1>${body}`, t.lang);
}
