// A role-guarded server route: signed out, a redirect to sign in (401 JSON for API clients); without the admin
// role, 403 FORBIDDEN (JSON for API clients, the kit's page for browsers).
import { defineEventHandler, setResponseHeader } from 'h3';
import { requireRole } from '@framework/nuxt';
import { createViews } from '@framework/example-shared/views';
import { ADMIN_ROLE } from '@framework/example-shared/web-example';

const views = createViews({});

export default defineEventHandler(async (event) => {
  const admin = await requireRole(event, ADMIN_ROLE);
  setResponseHeader(event, 'content-type', 'text/html; charset=utf-8');
  return views.adminPage(admin);
});
