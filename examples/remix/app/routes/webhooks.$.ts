// The trigger runtime's webhooks (POST /webhooks/demo, HMAC-signed).
import type { Route } from './+types/webhooks.$';
import { webhookRoute } from '../example.server.js';

export function loader(args: Route.LoaderArgs) {
  return webhookRoute.loader(args);
}

export function action(args: Route.ActionArgs) {
  return webhookRoute.action(args);
}
