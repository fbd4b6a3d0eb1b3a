import { defineTrigger } from '@framework/trigger';
import { customHmacVerifier } from '@framework/trigger/verifiers';

export default defineTrigger({
  source: {
    type: 'webhook',
    path: '/hooks/demo',
    verifier: customHmacVerifier({ secret: 'fixture', algorithm: 'sha256', header: 'x-signature' }),
  },
  handle: (event) => {
    if ((event.payload as { fail?: boolean }).fail) throw new Error('payload asked to fail');
  },
});
