import type { ReactNode } from 'react';

export const metadata = { title: 'Next.js example' };

const style = `body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1d2330}nav a{margin-right:1rem}label{display:block;margin:.75rem 0 .25rem}.error{background:#fdecec;color:#8a1c1c;padding:.6rem;border-radius:6px}`;

// No web fonts: `next build` needs no network.
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
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
      </body>
    </html>
  );
}
