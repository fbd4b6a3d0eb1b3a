/** Solid test page: `#status` from `useSession()` of `@framework/auth-client/solid` (hyperscript, no JSX compiler). */
import h from 'solid-js/h';
import { render } from 'solid-js/web';
import { useSession } from '../../src/solid.js';
import { expose, label } from './page-common.js';

function Status() {
  const session = useSession();
  return h('p', { id: 'status' }, () => label(session()));
}

expose();
// solid-js/h types its result as a node getter; `render` wants a JSX element getter.
render(h(Status, {}) as () => Element, document.getElementById('app')!);
