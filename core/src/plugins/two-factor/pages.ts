/**
 * The default no-JS pages of `twoFactor()`: the code prompt during sign-in, and the settings page (enrolment with
 * the QR code, backup codes, trusted devices, turning it off).
 * @module
 * @internal
 */
import { escapeHtml, hidden, layout, type PageLocale } from '../../plugin-kit.js';
import { twoFactorMessages } from './messages.js';
import type { TrustedDeviceRecord } from './types.js';

type T = ReturnType<typeof twoFactorMessages.for>;

const alert = (error: string | null | undefined) =>
  error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '';
const form = (action: string, csrfToken: string, body: string) =>
  `<form method="post" action="${escapeHtml(action)}">${hidden('csrfToken', csrfToken)}${body}</form>`;
const button = (label: string) => `<button type="submit">${escapeHtml(label)}</button>`;
const passwordInput = (t: T, id: string) =>
  `<label for="${id}">${escapeHtml(t('twoFactor.password'))}</label><input id="${id}" name="password" type="password" autocomplete="current-password">`;
const codeInput = (t: T, id: string, digits: number, required = true) =>
  `<label for="${id}">${escapeHtml(t('twoFactor.code'))}</label><input id="${id}" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="${digits + 2}"${required ? ' required' : ''}>`;

/** `GET /two-factor/verify`: the second step of a sign-in. */
export function verifyPage(input: {
  basePath: string;
  csrfToken: string;
  digits: number;
  trustDays: number | undefined;
  error?: string | null;
  /** The page's language (English without). */
  locale?: PageLocale | undefined;
}): string {
  const t = twoFactorMessages.for(input.locale);
  const action = `${input.basePath}/two-factor/verify`;
  const trust =
    input.trustDays === undefined
      ? ''
      : `<label><input type="checkbox" name="trustDevice" value="true" style="width:auto"> ${escapeHtml(t('twoFactor.trust', { days: input.trustDays }))}</label>`;
  return layout(
    t('twoFactor.title'),
    `<h1>${escapeHtml(t('twoFactor.enterCode'))}</h1>${alert(input.error)}` +
      form(
        action,
        input.csrfToken,
        `${codeInput(t, 'tf-code', input.digits)}${trust}${button(t('twoFactor.verify'))}`,
      ) +
      `<hr><details><summary>${escapeHtml(t('twoFactor.useBackupCode'))}</summary>` +
      form(
        action,
        input.csrfToken,
        `<label for="tf-backup">${escapeHtml(t('twoFactor.backupCode'))}</label><input id="tf-backup" name="backupCode" autocomplete="off" maxlength="40" required>${trust}${button(t('twoFactor.backupCodeButton'))}`,
      ) +
      `</details>`,
    t.lang,
  );
}

/** What the settings page shows. */
export interface SettingsView {
  basePath: string;
  csrfToken: string;
  digits: number;
  enabled: boolean;
  backupCodesLeft: number;
  devices: TrustedDeviceRecord[];
  /** Right after `POST /two-factor/enable`: the enrolment to confirm. */
  enrolment?: { qrCode: string; secret: string; backupCodes: string[] };
  /** Right after regenerating: the new codes, shown once. */
  newBackupCodes?: string[];
  /** A line of status, already in the page's language. */
  notice?: string | null;
  error?: string | null;
  /** The page's language (English without). */
  locale?: PageLocale | undefined;
}

const codeList = (t: T, codes: string[]) =>
  `<p>${escapeHtml(t('twoFactor.codes.save'))}</p><ul class="codes">${codes.map((c) => `<li><code>${escapeHtml(c)}</code></li>`).join('')}</ul>`;

/** `GET /two-factor`: the signed-in user's two-factor settings. */
export function settingsPage(v: SettingsView): string {
  const t = twoFactorMessages.for(v.locale);
  const base = `${v.basePath}/two-factor`;
  const head = `<h1>${escapeHtml(t('twoFactor.title'))}</h1>${alert(v.error)}${v.notice ? `<p role="status">${escapeHtml(v.notice)}</p>` : ''}`;
  if (v.enrolment) {
    return layout(
      t('twoFactor.setUp.title'),
      `${head}<p>${escapeHtml(t('twoFactor.setUp.scan'))}</p>` +
        `<div class="qr" role="img" aria-label="${escapeHtml(t('twoFactor.setUp.qrLabel'))}">${v.enrolment.qrCode}</div>` +
        `<p>${escapeHtml(t('twoFactor.setUp.key'))} <code id="tf-secret">${escapeHtml(v.enrolment.secret)}</code></p>` +
        codeList(t, v.enrolment.backupCodes) +
        form(
          `${base}/confirm`,
          v.csrfToken,
          `${codeInput(t, 'tf-confirm', v.digits)}${button(t('twoFactor.setUp.turnOn'))}`,
        ),
      t.lang,
    );
  }
  if (!v.enabled) {
    return layout(
      t('twoFactor.title'),
      `${head}<p>${escapeHtml(t('twoFactor.off.text'))}</p>` +
        form(
          `${base}/enable`,
          v.csrfToken,
          `${passwordInput(t, 'tf-enable-password')}<p><small>${escapeHtml(t('twoFactor.off.noPassword'))}</small></p>${button(t('twoFactor.off.setUp'))}`,
        ),
      t.lang,
    );
  }
  const devices =
    v.devices.length === 0
      ? `<p>${escapeHtml(t('twoFactor.devices.none'))}</p>`
      : `<ul>${v.devices.map((d) => `<li>${escapeHtml(t('twoFactor.devices.item', { browser: d.userAgent ?? t('twoFactor.devices.unknown'), date: d.expiresAt.toISOString().slice(0, 10) }))}</li>`).join('')}</ul>` +
        form(`${base}/trusted-devices/revoke`, v.csrfToken, button(t('twoFactor.devices.forget')));
  return layout(
    t('twoFactor.title'),
    `${head}<p>${escapeHtml(t('twoFactor.on.text', { count: v.backupCodesLeft }))}</p>` +
      (v.newBackupCodes ? codeList(t, v.newBackupCodes) : '') +
      `<h2>${escapeHtml(t('twoFactor.devices.heading'))}</h2>${devices}<hr><h2>${escapeHtml(t('twoFactor.codes.heading'))}</h2>` +
      form(
        `${base}/backup-codes`,
        v.csrfToken,
        `${passwordInput(t, 'tf-codes-password')}${codeInput(t, 'tf-codes-code', v.digits, false)}${button(t('twoFactor.codes.replace'))}`,
      ) +
      `<hr><h2>${escapeHtml(t('twoFactor.disable.heading'))}</h2>` +
      form(
        `${base}/disable`,
        v.csrfToken,
        `${passwordInput(t, 'tf-disable-password')}${codeInput(t, 'tf-disable-code', v.digits, false)}${button(t('twoFactor.disable.button'))}`,
      ),
    t.lang,
  );
}
