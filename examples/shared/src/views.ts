/**
 * The example app's pages: plain server-rendered HTML.
 */
import type { Session, User } from '@framework/auth';

const esc = (v: unknown) =>
  String(v ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1d2330}nav a{margin-right:1rem}label{display:block;margin:.75rem 0 .25rem}input{padding:.5rem;width:100%;box-sizing:border-box}button{margin-top:1rem;padding:.5rem 1rem}.error{background:#fdecec;color:#8a1c1c;padding:.6rem;border-radius:6px}</style>
</head><body><nav><a href="/">Home</a><a href="/protected">Protected</a><a href="/auth/signup">Create an account</a><a href="/auth/signin">Sign in</a><a href="/auth/passkey">Passkeys</a><a href="/admin">Admin</a><a href="/t/acme/">Tenant acme</a><a href="/dev/outbox">Outbox</a><a href="/auth/signout">Sign out</a></nav><main>${body}</main></body></html>`;
}

export function homePage(user: User | null, session: Session | null): string {
  if (!user || !session) {
    return page(
      'Home',
      `<h1>Welcome</h1><p>You are not signed in.</p><p><a href="/auth/signup">Create an account</a> or <a href="/auth/signin">sign in</a>.</p>`,
    );
  }
  return page(
    'Home',
    `<h1>Welcome, ${esc(user.name ?? user.email)}</h1><p>Signed in as <strong id="user-email">${esc(user.email)}</strong>.</p><p>Your session expires at <time id="session-expires" datetime="${esc(session.expires.toISOString())}">${esc(session.expires.toUTCString())}</time>.</p><p><a href="/auth/org">Your organizations</a> · <a href="/auth/signout">Sign out</a></p>`,
  );
}

export function protectedPage(user: User): string {
  return page(
    'Protected',
    `<h1>Protected page</h1><p>Only signed-in people see this. Hello, ${esc(user.name ?? user.email)}.</p>`,
  );
}

/** The dev outbox: every mail the app sent, newest first, with links clickable. */
export function outboxPage(mails: { to: string; subject: string; text: string; sentAt: Date }[]): string {
  const linkify = (text: string) => esc(text).replace(/(https?:\/\/[^\s<]+)/g, (url) => `<a href="${url}">${url}</a>`);
  const items = mails
    .map(
      (m) =>
        `<article class="mail"><h2>${esc(m.subject)}</h2><p>To <strong>${esc(m.to)}</strong> at ${esc(m.sentAt.toUTCString())}</p><pre style="white-space:pre-wrap">${linkify(m.text)}</pre></article>`,
    )
    .join('<hr>');
  return page(
    'Dev outbox',
    `<h1>Dev outbox</h1><p>Mail the app sent in development.</p>${items || '<p>No mail yet.</p>'}`,
  );
}
