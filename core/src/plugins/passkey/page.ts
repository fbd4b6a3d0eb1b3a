/**
 * The passkey management page: the user's passkeys (name, creation date,
 * delete) and "Add a passkey".
 * @internal
 * @module
 */
import { escapeHtml, hidden, layout } from '../../pages/html.js';
import { passkeyScript } from './assets.js';

export interface PasskeyListItem {
  id: string;
  name: string | null;
  createdAt: Date;
}

/** The passkey management page: the user's passkeys (name, creation date, delete) and "Add a passkey". */
export function passkeysPage(input: { basePath: string; csrfToken: string; passkeys: PasskeyListItem[] }): string {
  const rows = input.passkeys
    .map(
      (p) =>
        `<li><strong>${escapeHtml(p.name ?? 'Passkey')}</strong>, added <time datetime="${escapeHtml(p.createdAt.toISOString())}">${escapeHtml(p.createdAt.toUTCString())}</time><form method="post" action="${escapeHtml(`${input.basePath}/passkey/delete`)}">${hidden('csrfToken', input.csrfToken)}${hidden('credentialId', p.id)}<button type="submit" aria-label="Delete ${escapeHtml(p.name ?? 'passkey')}">Delete</button></form></li>`,
    )
    .join('');
  const list = rows ? `<ul id="passkey-list">${rows}</ul>` : '<p id="passkey-list">You have no passkeys yet.</p>';
  return layout(
    'Passkeys',
    `<h1>Your passkeys</h1>${list}<hr><label for="passkey-name">Name for a new passkey</label><input id="passkey-name" value="My passkey" maxlength="100"><button type="button" data-passkey="register">Add a passkey</button><p id="passkey-status" role="status"></p>${passkeyScript(input.basePath, input.csrfToken, '/')}`,
  );
}
