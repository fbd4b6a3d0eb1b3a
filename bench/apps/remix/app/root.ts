// The root route: no document (the bench app has only the resource route of routes/bench.ts).
import { createElement } from 'react';
import { Outlet } from 'react-router';

export default function Root() {
  return createElement(Outlet);
}
