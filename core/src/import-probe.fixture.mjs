/**
 * Prints (one JSON line) the packages under node_modules that a fresh Node process loads for
 * `await import(specifier)`, ESM and CommonJS alike. With `sqlite` as the second argument it then creates a SQLite
 * adapter and waits for its Kysely, so the probe can show that it sees a package load; with `request` it creates an
 * auth with an OAuth provider and starts an OAuth sign-in (what the lazy loads of the cold import then load).
 *
 *   node --import tsx --conditions=@framework/source import-probe.fixture.mjs @framework/auth [sqlite|request]
 */
import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const [specifier, action] = process.argv.slice(2);
const { port1, port2 } = new MessageChannel();
const urls = [];
const END = 'data:text/javascript,export%20default%20%22import-probe-end%22';
const ended = new Promise((resolve) => port1.on('message', (url) => (url === END ? resolve() : urls.push(url))));
register('./import-probe.hooks.mjs', { parentURL: import.meta.url, data: { port: port2 }, transferList: [port2] });

const loaded = await import(specifier);
if (action === 'sqlite') await loaded.createSqliteAdapter({ filename: ':memory:' }).loadKysely();
if (action === 'request') {
  // An auth with memory storage and an OAuth provider: a CSRF token, then an OAuth sign-in (its flow, its sealed
  // state cookie), so the lazy loads have happened when it answers.
  const auth = loaded.createAuth({
    secret: 'import-probe-secret-import-probe-secret',
    baseURL: 'http://app.test',
    providers: [loaded.github({ clientId: 'id', clientSecret: 'secret' })],
    adapter: loaded.createMemoryAdapter(),
  });
  const csrf = await auth.handler(new Request('http://app.test/auth/csrf'));
  const { csrfToken } = await csrf.json();
  const cookie = csrf.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const headers = { origin: 'http://app.test', 'content-type': 'application/json', accept: 'application/json', cookie };
  const signIn = await auth.handler(
    new Request('http://app.test/auth/signin/github', { method: 'POST', headers, body: JSON.stringify({ csrfToken }) }),
  );
  if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}`);
}
// Messages keep their order: once the last import's URL arrives, every earlier one has.
await import(END);
await ended;
port1.close();

const paths = [...urls, ...Object.keys(createRequire(import.meta.url).cache)];
const packages = new Set();
for (const path of paths) {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
  if (match) packages.add(match[1]);
}
console.log(JSON.stringify([...packages].sort()));
