/** Vue test page: `#status` from `useSession()` of `@framework/auth-client/vue`. */
import { createApp, defineComponent, h } from 'vue';
import { useSession } from '../../src/vue.js';
import type { AuthState } from '../../src/index.js';
import { expose, label } from './page-common.js';

const Status = defineComponent({
  setup() {
    const session = useSession();
    return () => h('p', { id: 'status' }, label(session.value as AuthState));
  },
});

expose();
createApp(Status).mount('#app');
