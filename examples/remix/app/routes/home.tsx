import type { Route } from './+types/home';
import { withAuth } from '../example.server.js';
import { AuthStatus } from '../components/AuthStatus.js';

export const loader = withAuth(({ user }) => ({
  user: user ? { email: user.email ?? '', name: user.name ?? null } : null,
}));

export const meta = () => [{ title: 'Home' }];

export default function Home({ loaderData }: Route.ComponentProps) {
  const { user } = loaderData;
  return (
    <>
      {user ? (
        <>
          <h1>{`Welcome, ${user.name ?? user.email}`}</h1>
          <p>
            Signed in as <strong id="user-email">{user.email}</strong>.
          </p>
        </>
      ) : (
        <>
          <h1>Welcome</h1>
          <p>
            You are not signed in. <a href="/auth/signup">Create an account</a> or sign in below.
          </p>
        </>
      )}
      <AuthStatus />
    </>
  );
}
