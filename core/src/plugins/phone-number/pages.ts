/**
 * The default no-JS pages of `phoneNumber()`: sign in with a code by SMS, and add (verify) a number for the
 * signed-in user. Each asks for the number first (the form sends the code), then for the code.
 * @module
 * @internal
 */
import { escapeHtml, hidden, layout } from '../../plugin-kit.js';

/** What every page shows. */
export interface PhonePageInput {
  basePath: string;
  csrfToken: string;
  /** The number the code went to (E.164); absent: ask for it first. */
  phoneNumber?: string | undefined;
  callbackUrl?: string | undefined;
  error?: string | null | undefined;
  digits: number;
}

const alert = (error: string | null | undefined) =>
  error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '';
const form = (action: string, fields: string, body: string) =>
  `<form method="post" action="${escapeHtml(action)}">${fields}${body}</form>`;
const back = (p: PhonePageInput) => (p.callbackUrl ? hidden('callbackUrl', p.callbackUrl) : '');
const codeInput = (digits: number) =>
  `<label for="pn-code">Code from the text message</label><input id="pn-code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="${digits + 2}" required>`;

/** The form that sends a code for `purpose` (to `phoneNumber`, or to the number typed in). */
export function sendForm(p: PhonePageInput, purpose: string, button: string): string {
  const fields = `${hidden('csrfToken', p.csrfToken)}${hidden('purpose', purpose)}${back(p)}`;
  const id = `pn-number-${purpose}`;
  const number =
    p.phoneNumber === undefined
      ? `<label for="${id}">Phone number</label><input id="${id}" name="phoneNumber" type="tel" autocomplete="tel" required>`
      : hidden('phoneNumber', p.phoneNumber);
  return form(
    `${p.basePath}/phone-number/send-otp`,
    fields,
    `${number}<button type="submit">${escapeHtml(button)}</button>`,
  );
}

/** `GET /phone-number/sign-in`: the number, then the code. */
export function signInPage(p: PhonePageInput): string {
  const title = 'Sign in with your phone';
  if (p.phoneNumber === undefined)
    return layout(title, `<h1>${title}</h1>${alert(p.error)}${sendForm(p, 'sign-in', 'Text me a code')}`);
  const fields = `${hidden('csrfToken', p.csrfToken)}${hidden('phoneNumber', p.phoneNumber)}${back(p)}`;
  return layout(
    title,
    `<h1>Enter your code</h1><p>We texted a code to ${escapeHtml(p.phoneNumber)}.</p>${alert(p.error)}` +
      form(
        `${p.basePath}/phone-number/sign-in`,
        fields,
        `${codeInput(p.digits)}<button type="submit">Sign in</button>`,
      ) +
      sendForm(p, 'sign-in', 'Send a new code'),
  );
}

/** `GET /phone-number/verify` (signed in): the number to add, then the code; shows the number the account has. */
export function verifyPage(p: PhonePageInput & { current: { phoneNumber: string; verified: boolean } | null }): string {
  const title = 'Your phone number';
  const current = p.current
    ? `<p>This account's number: ${escapeHtml(p.current.phoneNumber)}${p.current.verified ? ' (verified)' : ''}.</p>`
    : '';
  if (p.phoneNumber === undefined)
    return layout(
      title,
      `<h1>${title}</h1>${current}${alert(p.error)}${sendForm(p, 'verification', 'Text me a code')}`,
    );
  const fields = `${hidden('csrfToken', p.csrfToken)}${hidden('phoneNumber', p.phoneNumber)}${back(p)}`;
  return layout(
    title,
    `<h1>Enter your code</h1><p>We texted a code to ${escapeHtml(p.phoneNumber)}.</p>${alert(p.error)}` +
      form(`${p.basePath}/phone-number/verify`, fields, `${codeInput(p.digits)}<button type="submit">Verify</button>`) +
      sendForm(p, 'verification', 'Send a new code'),
  );
}
