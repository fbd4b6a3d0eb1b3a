/**
 * Where `npm start` listens: `PORT` (default 3000) on `HOST`, default
 * `127.0.0.1` so the app and its dev routes are reachable from this machine
 * only. Set `HOST=0.0.0.0` to listen on every interface.
 */
export function listenAddress(env: NodeJS.ProcessEnv = process.env): { port: number; hostname: string } {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`PORT must be an integer from 0 to 65535, got '${env.PORT}'`);
  return { port, hostname: env.HOST || '127.0.0.1' };
}
