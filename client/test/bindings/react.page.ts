/** React test page: `#status` from `useSession()` of `@framework/auth-client/react`. */
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { useSession } from '../../src/react.js';
import { expose, label } from './page-common.js';

function Status() {
  return createElement('p', { id: 'status' }, label(useSession()));
}

expose();
createRoot(document.getElementById('app')!).render(createElement(Status));
