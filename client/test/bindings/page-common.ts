/**
 * Shared by the binding test pages (bundled for the browser): the text a
 * page shows for a state, and the client helpers and rendered-text history
 * put on `window` for the test to drive and read.
 * @module
 */
import { signIn, signOut } from '../../src/index.js';
import type { AuthState } from '../../src/index.js';

/** What a test page puts on `window`. */
export interface BindingWindow {
  authClient: { signIn: typeof signIn; signOut: typeof signOut };
  /** Every distinct text `#status` showed, in order. */
  seen: string[];
}

/** `loading`, `unauthenticated`, or the signed-in user's email. */
export function label(state: AuthState): string {
  return state.status === 'authenticated' ? (state.user.email ?? state.user.id) : state.status;
}

/** Exposes the helpers and records each text `#status` shows, from before the first render. */
export function expose(): void {
  const win = window as unknown as BindingWindow;
  win.authClient = { signIn, signOut };
  win.seen = [];
  const record = () => {
    const text = document.getElementById('status')?.textContent;
    if (text != null && text !== win.seen.at(-1)) win.seen.push(text);
  };
  new MutationObserver(record).observe(document.body, { childList: true, subtree: true, characterData: true });
}
