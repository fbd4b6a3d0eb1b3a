import type { Route } from './+types/protected';
import { secureRoute } from '@framework/remix';
import { requireUser, withAuth } from '../example.server.js';

// Signed out: 302 to /auth/signin?callbackUrl=%2Fprotected.
export const loader = secureRoute(
  withAuth(async ({ request }: Route.LoaderArgs) => {
    const user = await requireUser(request);
    return { name: user.name ?? user.email ?? 'there' };
  }),
);

export const meta = () => [{ title: 'Protected' }];

export default function Protected({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <h1>Protected page</h1>
      <p>{`Only signed-in people see this. Hello, ${loaderData.name}.`}</p>
    </>
  );
}
