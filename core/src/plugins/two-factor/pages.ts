/**
 * The default no-JS pages of `twoFactor()`: the code prompt during sign-in, and the settings page (enrolment with
 * the QR code, backup codes, trusted devices, turning it off).
 * @module
 * @internal
 */
import { escapeHtml, hidden, layout } from '../../plugin-kit.js';
import type { TrustedDeviceRecord } from './types.js';

const alert = (error: string | null | undefined) =>
  error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '';
const form = (action: string, csrfToken: string, body: string) =>
  `<form method="post" action="${escapeHtml(action)}">${hidden('csrfToken', csrfToken)}${body}</form>`;
const passwordInput = (id: string) =>
  `<label for="${id}">Password</label><input id="${id}" name="password" type="password" autocomplete="current-password">`;
const codeInput = (id: string, digits: number, required = true) =>
  `<label for="${id}">Code from your authenticator app</label><input id="${id}" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="${digits + 2}"${required ? ' required' : ''}>`;

/** `GET /two-factor/verify`: the second step of a sign-in. */
export function verifyPage(input: {
  basePath: string;
  csrfToken: string;
  digits: number;
  trustDays: number | undefined;
  error?: string | null;
}): string {
  const action = `${input.basePath}/two-factor/verify`;
  const trust =
    input.trustDays === undefined
      ? ''
      : `<label><input type="checkbox" name="trustDevice" value="true" style="width:auto"> Trust this browser for ${input.trustDays} days</label>`;
  return layout(
    'Two-factor authentication',
    `<h1>Enter your code</h1>${alert(input.error)}` +
      form(
        action,
        input.csrfToken,
        `${codeInput('tf-code', input.digits)}${trust}<button type="submit">Verify</button>`,
      ) +
      `<hr><details><summary>Use a backup code</summary>` +
      form(
        action,
        input.csrfToken,
        `<label for="tf-backup">Backup code</label><input id="tf-backup" name="backupCode" autocomplete="off" maxlength="40" required>${trust}<button type="submit">Use backup code</button>`,
      ) +
      `</details>`,
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
  notice?: string | null;
  error?: string | null;
}

const codeList = (codes: string[]) =>
  `<p>Save these backup codes somewhere safe. Each works once, and they are shown only now.</p><ul class="codes">${codes.map((c) => `<li><code>${escapeHtml(c)}</code></li>`).join('')}</ul>`;

/** `GET /two-factor`: the signed-in user's two-factor settings. */
export function settingsPage(v: SettingsView): string {
  const base = `${v.basePath}/two-factor`;
  const head = `<h1>Two-factor authentication</h1>${alert(v.error)}${v.notice ? `<p role="status">${escapeHtml(v.notice)}</p>` : ''}`;
  if (v.enrolment) {
    return layout(
      'Set up two-factor authentication',
      `${head}<p>Scan this QR code with your authenticator app, then enter the code it shows.</p>` +
        `<div class="qr" role="img" aria-label="QR code of the authenticator key">${v.enrolment.qrCode}</div>` +
        `<p>Or enter this key by hand: <code id="tf-secret">${escapeHtml(v.enrolment.secret)}</code></p>` +
        codeList(v.enrolment.backupCodes) +
        form(
          `${base}/confirm`,
          v.csrfToken,
          `${codeInput('tf-confirm', v.digits)}<button type="submit">Turn on</button>`,
        ),
    );
  }
  if (!v.enabled) {
    return layout(
      'Two-factor authentication',
      `${head}<p>Two-factor authentication is off. Turn it on to ask for a code from an authenticator app at each sign-in.</p>` +
        form(
          `${base}/enable`,
          v.csrfToken,
          `${passwordInput('tf-enable-password')}<p><small>No password? Sign in again first.</small></p><button type="submit">Set up</button>`,
        ),
    );
  }
  const devices =
    v.devices.length === 0
      ? '<p>No trusted browsers.</p>'
      : `<ul>${v.devices.map((d) => `<li>${escapeHtml(d.userAgent ?? 'Unknown browser')}, until ${escapeHtml(d.expiresAt.toISOString().slice(0, 10))}</li>`).join('')}</ul>` +
        form(
          `${base}/trusted-devices/revoke`,
          v.csrfToken,
          `<button type="submit">Forget all trusted browsers</button>`,
        );
  return layout(
    'Two-factor authentication',
    `${head}<p>Two-factor authentication is <strong>on</strong>. Backup codes left: ${v.backupCodesLeft}.</p>` +
      (v.newBackupCodes ? codeList(v.newBackupCodes) : '') +
      `<h2>Trusted browsers</h2>${devices}<hr><h2>New backup codes</h2>` +
      form(
        `${base}/backup-codes`,
        v.csrfToken,
        `${passwordInput('tf-codes-password')}${codeInput('tf-codes-code', v.digits, false)}<button type="submit">Replace backup codes</button>`,
      ) +
      `<hr><h2>Turn off</h2>` +
      form(
        `${base}/disable`,
        v.csrfToken,
        `${passwordInput('tf-disable-password')}${codeInput('tf-disable-code', v.digits, false)}<button type="submit">Turn off two-factor</button>`,
      ),
  );
}
