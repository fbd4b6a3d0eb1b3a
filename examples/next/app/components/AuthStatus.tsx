'use client';
// The browser's view of the session: useSession() from @framework/auth-client/react (the nanostores store, which
// fetches /auth/session from the page), signIn / signOut without leaving the page, then router.refresh() so the
// Server Components render the new session too.
import { useState, type FormEvent } from 'react';
import { useRouter } from 'next/navigation';
import { useSession } from '@framework/auth-client/react';
import { signIn, signOut } from '@framework/auth-client';

export function AuthStatus() {
  const session = useSession();
  const router = useRouter();
  const [failure, setFailure] = useState('');

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFailure('');
    const form = new FormData(event.currentTarget);
    const result = await signIn('credentials', {
      email: String(form.get('email')),
      password: String(form.get('password')),
      redirect: false,
    });
    if (result.ok) router.refresh();
    else setFailure(result.error ?? 'Sign-in failed');
  }

  return (
    <section aria-label="Session in the browser">
      <h2>In the browser</h2>
      <p>
        Store status: <span id="store-status">{session.status}</span>
      </p>
      {session.status === 'authenticated' ? (
        <>
          <p>
            The store says you are <strong id="store-user">{session.user.email}</strong>.
          </p>
          <button type="button" onClick={() => void signOut({ redirect: false }).then(() => router.refresh())}>
            Sign out here
          </button>
        </>
      ) : null}
      {session.status === 'unauthenticated' ? (
        <form onSubmit={submit}>
          <label>
            Email <input name="email" type="email" autoComplete="email" required />
          </label>
          <label>
            Password <input name="password" type="password" autoComplete="current-password" required />
          </label>
          <button type="submit">Sign in here</button>
          {failure ? (
            <p className="error" role="alert" id="store-error">
              {failure}
            </p>
          ) : null}
        </form>
      ) : null}
    </section>
  );
}
