/**
 * The example app's pages: plain server-rendered HTML.
 */
import type { Session, User } from '@framework/auth';
import { ADMIN_ROLE } from './admin.js';

const esc = (v: unknown) =>
  String(v ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** Which optional parts an example serves, so that its nav bar links only to pages that exist. */
export interface NavOptions {
  /** A passkey provider is configured (`/auth/passkey`). */
  passkeys?: boolean;
  /** The tenant demo is mounted (`/t/`). */
  tenants?: boolean;
  /** The dev outbox is served (`/dev/outbox`). */
  outbox?: boolean;
  /** Two-factor is on (`/auth/two-factor`). */
  twoFactor?: boolean;
  /** API keys are on (`/auth/api-keys`). */
  apiKeys?: boolean;
  /** Access tokens are on (`/auth/token`). */
  accessTokens?: boolean;
  /** Organizations are on (`/auth/org`). */
  organizations?: boolean;
  /** The operator's dashboard is served (`/_framework/`). */
  dashboard?: boolean;
}

type Link = { href: string; label: string };

/**
 * The nav bar's links for `nav`, in order. `signedIn` picks the links that fit: signed out, sign in and create an
 * account; signed in, the passkeys page and sign out. Undefined (a page that does not know): both.
 */
export function navLinks(nav: NavOptions, signedIn?: boolean): Link[] {
  const out = signedIn !== true;
  const inside = signedIn !== false;
  return [
    { href: '/', label: 'Home' },
    { href: '/protected', label: 'Protected' },
    ...(out ? [{ href: '/auth/signup', label: 'Create an account' }] : []),
    ...(out ? [{ href: '/auth/signin', label: 'Sign in' }] : []),
    ...(inside && nav.passkeys ? [{ href: '/auth/passkey', label: 'Passkeys' }] : []),
    { href: '/admin', label: 'Admin' },
    ...(nav.tenants ? [{ href: '/t/', label: 'Tenants' }] : []),
    ...(nav.outbox ? [{ href: '/dev/outbox', label: 'Outbox' }] : []),
    ...(inside ? [{ href: '/auth/signout', label: 'Sign out' }] : []),
  ];
}

/** The signed-in home page's links to the account's pages, for the features `nav` has on. */
export function accountLinks(nav: NavOptions, user: User): Link[] {
  return [
    { href: '/auth/sessions', label: 'Signed-in devices' },
    { href: '/auth/multi-session', label: 'Accounts on this browser' },
    ...(nav.passkeys ? [{ href: '/auth/passkey', label: 'Passkeys' }] : []),
    ...(nav.twoFactor ? [{ href: '/auth/two-factor', label: 'Two-factor authentication' }] : []),
    ...(nav.apiKeys ? [{ href: '/auth/api-keys', label: 'API keys (JSON)' }] : []),
    ...(nav.accessTokens ? [{ href: '/auth/token', label: 'An access token (JSON)' }] : []),
    ...(nav.accessTokens ? [{ href: '/auth/oauth2/consents', label: 'Apps with access' }] : []),
    ...(nav.organizations ? [{ href: '/auth/org', label: 'Your organizations' }] : []),
    ...(user.role === ADMIN_ROLE ? [{ href: '/admin', label: 'Admin' }] : []),
    ...(nav.dashboard ? [{ href: '/_framework/', label: 'Dashboard' }] : []),
    { href: '/auth/signout', label: 'Sign out' },
  ];
}

const linkList = (links: Link[], id: string) =>
  `<ul id="${id}">${links.map((l) => `<li><a href="${l.href}">${esc(l.label)}</a></li>`).join('')}</ul>`;

function page(nav: NavOptions, title: string, body: string, signedIn?: boolean): string {
  const links = navLinks(nav, signedIn)
    .map((link) => `<a href="${link.href}">${esc(link.label)}</a>`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1d2330}nav a{margin-right:1rem}label{display:block;margin:.75rem 0 .25rem}input{padding:.5rem;width:100%;box-sizing:border-box}button{margin-top:1rem;padding:.5rem 1rem}.error{background:#fdecec;color:#8a1c1c;padding:.6rem;border-radius:6px}</style>
</head><body><nav>${links}</nav><main>${body}</main></body></html>`;
}

/**
 * The example's pages, with a nav bar that links only to what the app serves.
 * @example
 * ```ts
 * const views = createViews({ passkeys: auth.providers.has('passkey'), tenants: true, outbox: true });
 * app.get('/', (c) => c.html(views.homePage(c.get('user'), c.get('session'))));
 * ```
 */
export function createViews(nav: NavOptions) {
  return {
    homePage: (user: User | null, session: Session | null) => homePage(nav, user, session),
    protectedPage: (user: User) => protectedPage(nav, user),
    /** The page only the admin role sees, with links to the admin plugin's pages. */
    adminPage: (user: User) =>
      page(
        nav,
        'Admin',
        `<h1>Admin</h1><p>Hello, ${esc(user.name ?? user.email)}. Role: <strong id="role">${ADMIN_ROLE}</strong></p><p><a href="/auth/admin">Manage users</a> · <a href="/auth/admin/audit">Audit log (JSON)</a></p>`,
        true,
      ),
    outboxPage: (mails: Mail[]) => outboxPage(nav, mails),
  };
}

type Mail = { to: string; subject: string; text: string; sentAt: Date };

function homePage(nav: NavOptions, user: User | null, session: Session | null): string {
  if (!user || !session) {
    return page(
      nav,
      'Home',
      `<h1>Welcome</h1><p>You are not signed in.</p>${linkList(
        [
          { href: '/auth/signin', label: 'Sign in' },
          { href: '/auth/signup', label: 'Create an account' },
        ],
        'signed-out-links',
      )}`,
      false,
    );
  }
  return page(
    nav,
    'Home',
    `<h1>Welcome, ${esc(user.name ?? user.email)}</h1><p>Signed in as <strong id="user-email">${esc(user.email)}</strong>.</p><p>Your session expires at <time id="session-expires" datetime="${esc(session.expires.toISOString())}">${esc(session.expires.toUTCString())}</time>.</p><h2>Your account</h2>${linkList(accountLinks(nav, user), 'account-links')}`,
    true,
  );
}

function protectedPage(nav: NavOptions, user: User): string {
  return page(
    nav,
    'Protected',
    `<h1>Protected page</h1><p>Only signed-in people see this. Hello, ${esc(user.name ?? user.email)}.</p>`,
    true,
  );
}

/** The dev outbox: every mail the app sent, newest first, with links clickable. */
function outboxPage(nav: NavOptions, mails: Mail[]): string {
  const linkify = (text: string) => esc(text).replace(/(https?:\/\/[^\s<]+)/g, (url) => `<a href="${url}">${url}</a>`);
  const items = mails
    .map(
      (m) =>
        `<article class="mail"><h2>${esc(m.subject)}</h2><p>To <strong>${esc(m.to)}</strong> at ${esc(m.sentAt.toUTCString())}</p><pre style="white-space:pre-wrap">${linkify(m.text)}</pre></article>`,
    )
    .join('<hr>');
  return page(
    nav,
    'Dev outbox',
    `<h1>Dev outbox</h1><p>Mail the app sent in development.</p>${items || '<p>No mail yet.</p>'}`,
  );
}
