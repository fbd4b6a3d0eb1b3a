// Pages that need a signed-in user: signed out, a 302 to the kit's sign-in page with callbackUrl (on the server,
// before anything renders; in the browser, a full navigation, since the sign-in page is the kit's own).
import { useAuthUser } from '../composables/auth-user';

export default defineNuxtRouteMiddleware((to) => {
  if (useAuthUser().value) return;
  return navigateTo(`/auth/signin?callbackUrl=${encodeURIComponent(to.fullPath)}`, {
    external: true,
    redirectCode: 302,
  });
});
