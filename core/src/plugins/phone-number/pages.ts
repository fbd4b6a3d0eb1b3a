/**
 * The default no-JS pages of `phoneNumber()`: sign in with a code by SMS, and add (verify) a number for the
 * signed-in user. Each asks for the number first (the form sends the code), then for the code.
 * @module
 * @internal
 */
import { escapeHtml, hidden, layout, type PageLocale } from '../../plugin-kit.js';
import { otpMessages } from '../otp/index.js';
import { phoneNumberMessages } from './messages.js';

/** What every page shows. */
export interface PhonePageInput {
  basePath: string;
  csrfToken: string;
  /** The number the code went to (E.164); absent: ask for it first. */
  phoneNumber?: string | undefined;
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
const back = (p: PhonePageInput) => (p.callbackUrl ? hidden('callbackUrl', p.callbackUrl) : '');
const button = (label: string) => `<button type="submit">${escapeHtml(label)}</button>`;

function codeInput(p: PhonePageInput): string {
  const label = escapeHtml(phoneNumberMessages.for(p.locale)('phoneNumber.code'));
  return `<label for="pn-code">${label}</label><input id="pn-code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="${p.digits + 2}" required>`;
}

/** The form that sends a code for `purpose` (to `phoneNumber`, or to the number typed in); `label` is the button's. */
export function sendForm(p: PhonePageInput, purpose: string, label: string): string {
  const fields = `${hidden('csrfToken', p.csrfToken)}${hidden('purpose', purpose)}${back(p)}`;
  const id = `pn-number-${purpose}`;
  const number =
    p.phoneNumber === undefined
      ? `<label for="${id}">${escapeHtml(phoneNumberMessages.for(p.locale)('phoneNumber.number'))}</label><input id="${id}" name="phoneNumber" type="tel" autocomplete="tel" required>`
      : hidden('phoneNumber', p.phoneNumber);
  return form(`${p.basePath}/phone-number/send-otp`, fields, `${number}${button(label)}`);
}

/** The code step: "Enter your code", where it went, the code form posting to `action`, and "Send a new code". */
function codeStep(p: PhonePageInput & { phoneNumber: string }, action: string, submit: string, purpose: string) {
  const t = phoneNumberMessages.for(p.locale);
  const otp = otpMessages.for(p.locale);
  const fields = `${hidden('csrfToken', p.csrfToken)}${hidden('phoneNumber', p.phoneNumber)}${back(p)}`;
  return (
    `<h1>${escapeHtml(otp('otp.enterCode'))}</h1><p>${escapeHtml(t('phoneNumber.sent', { phoneNumber: p.phoneNumber }))}</p>${alert(p.error)}` +
    form(`${p.basePath}/phone-number/${action}`, fields, `${codeInput(p)}${button(submit)}`) +
    sendForm(p, purpose, otp('otp.sendNewCode'))
  );
}

/** `GET /phone-number/sign-in`: the number, then the code. */
export function signInPage(p: PhonePageInput): string {
  const t = phoneNumberMessages.for(p.locale);
  const title = t('phoneNumber.signIn.title');
  if (p.phoneNumber === undefined)
    return layout(
      title,
      `<h1>${escapeHtml(title)}</h1>${alert(p.error)}${sendForm(p, 'sign-in', t('phoneNumber.sendCode'))}`,
      t.lang,
    );
  const step = codeStep(
    { ...p, phoneNumber: p.phoneNumber },
    'sign-in',
    otpMessages.for(p.locale)('otp.signIn'),
    'sign-in',
  );
  return layout(title, step, t.lang);
}

/** `GET /phone-number/verify` (signed in): the number to add, then the code; shows the number the account has. */
export function verifyPage(p: PhonePageInput & { current: { phoneNumber: string; verified: boolean } | null }): string {
  const t = phoneNumberMessages.for(p.locale);
  const title = t('phoneNumber.verify.title');
  const current = p.current
    ? `<p>${escapeHtml(t(p.current.verified ? 'phoneNumber.verify.currentVerified' : 'phoneNumber.verify.current', { phoneNumber: p.current.phoneNumber }))}</p>`
    : '';
  if (p.phoneNumber === undefined)
    return layout(
      title,
      `<h1>${escapeHtml(title)}</h1>${current}${alert(p.error)}${sendForm(p, 'verification', t('phoneNumber.sendCode'))}`,
      t.lang,
    );
  const step = codeStep(
    { ...p, phoneNumber: p.phoneNumber },
    'verify',
    otpMessages.for(p.locale)('otp.verify'),
    'verification',
  );
  return layout(title, step, t.lang);
}
