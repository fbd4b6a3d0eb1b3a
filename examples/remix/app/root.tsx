import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration } from 'react-router';
import type { ReactNode } from 'react';
import type { Route } from './+types/root';

// The kit's page security headers on every document (no caching, no framing, no cross-site Referer).
export { securityHeaders as headers } from '@framework/remix';

const style = `body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1d2330}nav a{margin-right:1rem}label{display:block;margin:.75rem 0 .25rem}.error{background:#fdecec;color:#8a1c1c;padding:.6rem;border-radius:6px}`;

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        <style>{style}</style>
      </head>
      <body>
        <nav>
          <a href="/">Home</a>
          <a href="/protected">Protected</a>
          <a href="/admin">Admin</a>
          <a href="/auth/signup">Create an account</a>
          <a href="/auth/signin">Sign in</a>
          <a href="/auth/signout">Sign out</a>
        </nav>
        <main>{children}</main>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message =
    status === 403 ? 'You may not see this page.' : status === 404 ? 'Not found.' : 'Something went wrong.';
  return (
    <>
      <h1>{status}</h1>
      <p className="error" role="alert">
        {message}
      </p>
    </>
  );
}
