import { getSession } from '../lib/example';
import { AuthStatus } from './components/AuthStatus';

// Read per request (cookies), never prerendered.
export const dynamic = 'force-dynamic';

export default async function Home() {
  const { user } = await getSession();
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
