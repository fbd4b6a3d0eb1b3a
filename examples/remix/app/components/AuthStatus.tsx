// The browser client's session store (nanostores) through @nanostores/react.
// The store is created after hydration: it fetches /auth/session from the
// page, which only the browser can do.
import { useEffect, useState, type FormEvent } from 'react';
import { useRevalidator } from 'react-router';
import { useStore } from '@nanostores/react';
import { createAuthStore, signIn, signOut, type AuthStore } from '@framework/auth-client';

export function AuthStatus() {
  const [store, setStore] = useState<AuthStore | null>(null);
  useEffect(() => setStore(createAuthStore()), []);
  return (
    <section aria-label="Session in the browser">
      <h2>In the browser</h2>
      {store ? (
        <StoreView store={store} />
      ) : (
        <p>
          Store status: <span id="store-status">loading</span>
        </p>
      )}
    </section>
  );
}

function StoreView({ store }: { store: AuthStore }) {
  const session = useStore(store.$auth);
  const revalidator = useRevalidator();
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
    if (result.ok)
      await revalidator.revalidate(); // the loaders pick up the new session too
    else setFailure(result.error ?? 'Sign-in failed');
  }

  return (
    <>
      <p>
        Store status: <span id="store-status">{session.status}</span>
      </p>
      {session.status === 'authenticated' ? (
        <>
          <p>
            The store says you are <strong id="store-user">{session.user.email}</strong>.
          </p>
          <button type="button" onClick={() => void signOut({ redirect: false }).then(() => revalidator.revalidate())}>
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
    </>
  );
}
