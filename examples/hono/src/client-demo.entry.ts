/**
 * Browser side of the client demo page (bundled by client-demo.ts): renders
 * the auth store and signs in and out with the client helpers. Exposes
 * `window.authDemo` for the browser test.
 */
import { createAuthStore, signIn, signOut, type AuthState } from '@framework/auth-client';

const store = createAuthStore();
const history: AuthState['status'][] = [];
const byId = (id: string) => document.getElementById(id)!;
const form = byId('signin-form') as HTMLFormElement;

function render(state: AuthState): void {
  history.push(state.status);
  document.body.dataset.status = state.status;
  byId('status').textContent = state.status;
  byId('user-email').textContent = state.user?.email ?? '';
  form.hidden = state.status !== 'unauthenticated';
  byId('signout').hidden = state.status !== 'authenticated';
}

store.subscribe(render);

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const data = new FormData(form);
  void signIn('credentials', {
    email: String(data.get('email')),
    password: String(data.get('password')),
    redirect: false,
  }).then((result) => {
    byId('message').textContent = result.ok ? '' : `Sign-in failed (${result.error ?? result.status})`;
  });
});

byId('signout').addEventListener('click', () => void signOut({ redirect: false }));

Object.assign(window, { authDemo: { store, history, signIn, signOut } });
