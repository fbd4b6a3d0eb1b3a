// Server rendering only: the request's session (read by @framework/nuxt on the server) becomes the `auth-user`
// state, which Nuxt sends to the browser with the page. Only what the pages show is kept.
import { getSession } from '@framework/nuxt';
import { useAuthUser } from '../composables/auth-user';

export default defineNuxtPlugin(async () => {
  const event = useRequestEvent();
  if (!event) return;
  const { user } = await getSession(event);
  useAuthUser().value = user ? { email: user.email ?? '', name: user.name ?? null } : null;
});
