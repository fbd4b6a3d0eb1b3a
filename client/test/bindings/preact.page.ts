/** Preact test page: `#status` from `useSession()` of `@framework/auth-client/preact`. */
import { h, render } from 'preact';
import { useSession } from '../../src/preact.js';
import { expose, label } from './page-common.js';

function Status() {
  return h('p', { id: 'status' }, label(useSession()));
}

expose();
render(h(Status, null), document.getElementById('app')!);
