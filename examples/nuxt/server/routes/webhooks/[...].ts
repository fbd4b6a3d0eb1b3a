// The signed webhook (POST /webhooks/demo), verified by the trigger runtime over the exact bytes.
import { defineEventHandler } from 'h3';
import { toWebRequest } from '@framework/nuxt';
import { getExample } from '../../utils/example';

export default defineEventHandler(async (event) => {
  const answer = await (await getExample()).triggers.fetch(toWebRequest(event));
  return answer ?? new Response('Not Found', { status: 404 });
});
