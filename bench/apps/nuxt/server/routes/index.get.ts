// GET /: `ok`, or (protected) the signed-in user's id through the adapter's requireAuth (401 when signed out).
import { defineEventHandler } from 'h3';
import { requireAuth } from '@framework/nuxt';
import { benchMode } from '../../../bench-auth';

export default benchMode() === 'protected'
  ? defineEventHandler(async (event) => (await requireAuth(event, { throwError: true })).id)
  : defineEventHandler(() => 'ok');
