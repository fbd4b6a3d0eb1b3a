// Next.js's own no-op middleware (Edge runtime) in front of the route, in both modes.
import { NextResponse } from 'next/server';

export function middleware(): NextResponse {
  return NextResponse.next();
}

export const config = { matcher: ['/'] };
