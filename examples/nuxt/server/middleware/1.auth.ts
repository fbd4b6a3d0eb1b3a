// The session of every request, read on first use by getSession() and the guards (middleware run in file-name order).
import { authSession } from '@framework/nuxt';
import { exampleAuth } from '../utils/example';

export default authSession(exampleAuth);
