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
}

/** The nav bar's links for `nav`, in order. */
export function navLinks(nav: NavOptions): { href: string; label: string }[] {
  return [
    { href: '/', label: 'Home' },
    { href: '/protected', label: 'Protected' },
    { href: '/auth/signup', label: 'Create an account' },
    { href: '/auth/signin', label: 'Sign in' },
    ...(nav.passkeys ? [{ href: '/auth/passkey', label: 'Passkeys' }] : []),
    { href: '/admin', label: 'Admin' },
    ...(nav.tenants ? [{ href: '/t/', label: 'Tenants' }] : []),
    ...(nav.outbox ? [{ href: '/dev/outbox', label: 'Outbox' }] : []),
    { href: '/auth/signout', label: 'Sign out' },
  ];
}

function page(nav: NavOptions, title: string, body: string): string {
  const links = navLinks(nav)
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
      `<h1>Welcome</h1><p>You are not signed in.</p><p><a href="/auth/signup">Create an account</a> or <a href="/auth/signin">sign in</a>.</p>`,
    );
  }
  return page(
    nav,
    'Home',
    `<h1>Welcome, ${esc(user.name ?? user.email)}</h1><p>Signed in as <strong id="user-email">${esc(user.email)}</strong>.</p><p>Your session expires at <time id="session-expires" datetime="${esc(session.expires.toISOString())}">${esc(session.expires.toUTCString())}</time>.</p><p><a href="/auth/org">Your organizations</a> · <a href="/auth/signout">Sign out</a></p>`,
  );
}

function protectedPage(nav: NavOptions, user: User): string {
  return page(
    nav,
    'Protected',
    `<h1>Protected page</h1><p>Only signed-in people see this. Hello, ${esc(user.name ?? user.email)}.</p>`,
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
