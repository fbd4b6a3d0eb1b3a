/**
 * A `Requester` for `@upstash/redis` that runs commands on a node-redis v5
 * client over TCP (RESP2), so `@upstash/ratelimit` works with a
 * self-hosted Redis.
 *
 * Request shapes of the Upstash REST protocol that the SDK hands a
 * requester, and what the bridge does with them:
 * - single command: `{body: ['evalsha', sha, 1, key, ...]}` → `{result}` or
 *   `{error}`; one `sendCommand`;
 * - `{path: ['pipeline'], body: [[...], [...]]}` → `[{result} | {error}, ...]`;
 *   each command is sent at once (node-redis writes them in one batch);
 * - `{path: ['multi-exec'], body: [...]}` → the same array, from a
 *   MULTI/EXEC transaction (`client.multi()`).
 * Arguments are sent as strings; replies keep their RESP2 shape (integers,
 * strings, null, arrays), which is what the REST service returns too.
 * @module
 */
import { Redis, type Requester, type UpstashRequest, type UpstashResponse } from '@upstash/redis';
import { ScriptRewriter, scriptSha } from './script-flags.js';
import type { NodeRedisClientLike } from './types.js';

/** Options of {@link nodeRedisRequester}. */
export interface NodeRedisBridgeOptions {
  /**
   * Timeout in **milliseconds** for commands sent while the client is not
   * ready (node-redis `timeout` command option), so an outage cannot pile
   * commands up in node-redis's offline queue. Default 1000.
   */
  commandTimeout?: number;
}

type Reply = { result: unknown } | { error: string };

const toArg = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function isCommandList(body: unknown): body is unknown[][] {
  return Array.isArray(body) && body.every(Array.isArray);
}

/**
 * Builds the requester. Scripts are rewritten on the way through: unknown
 * shebang flags are stripped (see `stripUnknownScriptFlags`), `EVAL` and
 * `SCRIPT LOAD` send the rewritten text, and `EVALSHA` of an original SHA1
 * is sent with the rewritten script's SHA1. `SCRIPT LOAD` answers the
 * original SHA1, so callers keep using the names they know.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { Redis } from '@upstash/redis';
 * const client = await createClient({ url: 'redis://127.0.0.1:6379' }).connect();
 * const redis = new Redis(nodeRedisRequester(client));
 * await redis.set('greeting', 'hello');
 * ```
 */
export function nodeRedisRequester(client: NodeRedisClientLike, options: NodeRedisBridgeOptions = {}): Requester {
  const timeout = options.commandTimeout ?? 1000;
  // A per-command timeout costs node-redis an AbortSignal and a timer per command (a fifth of
  // the bridge's CPU), so it is only set while the client is not ready: that is when commands
  // would wait in the offline queue. Commands already written fail when the socket closes.
  const offlineOptions = { timeout };
  const optionsNow = () => (client.isReady === false ? offlineOptions : undefined);
  const scripts = new ScriptRewriter();

  /** Arguments as strings, with script names and texts rewritten (see above). */
  function prepare(command: unknown[]): { args: string[]; script?: Promise<string>; loadSha?: Promise<string> } {
    const args = command.map(toArg);
    const name = (args[0] ?? '').toLowerCase();
    if ((name === 'evalsha' || name === 'evalsha_ro') && args[1] !== undefined) args[1] = scripts.sha(args[1]);
    else if ((name === 'eval' || name === 'eval_ro') && args[1] !== undefined)
      return { args, script: scripts.script(args[1]) };
    else if (name === 'script' && args[1]?.toLowerCase() === 'load' && args[2] !== undefined) {
      // Answer the original SHA1, so callers keep using the names they know.
      return { args, script: scripts.script(args[2]), loadSha: scriptSha(args[2]) };
    }
    return { args };
  }

  /** Waits for a rewritten script, if any, and puts it in place. */
  async function withScript(p: ReturnType<typeof prepare>): Promise<string[]> {
    if (p.script) p.args[p.args[0]!.toLowerCase() === 'script' ? 2 : 1] = await p.script;
    return p.args;
  }

  async function run(command: unknown[]): Promise<Reply> {
    try {
      const p = prepare(command);
      // The common case (EVALSHA, plain commands) goes out without waiting a tick.
      const result = await client.sendCommand(p.script ? await withScript(p) : p.args, optionsNow());
      return { result: p.loadSha ? await p.loadSha : result };
    } catch (error) {
      return { error: messageOf(error) };
    }
  }

  async function transaction(commands: unknown[][]): Promise<Reply[]> {
    const multi = client.multi();
    for (const command of commands) multi.addCommand(await withScript(prepare(command)));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`MULTI/EXEC did not answer within ${timeout} ms`)), timeout);
    });
    const exec = multi.exec();
    exec.catch(() => {});
    try {
      const replies = (await Promise.race([exec, deadline])) as unknown[];
      return replies.map((result) => ({ result }));
    } catch (error) {
      // node-redis reports failed commands inside EXEC as a MultiErrorReply carrying every reply.
      const { replies, errorIndexes } = error as { replies?: unknown[]; errorIndexes?: number[] };
      if (!Array.isArray(replies) || !Array.isArray(errorIndexes)) throw error;
      return replies.map((reply, i) => (errorIndexes.includes(i) ? { error: messageOf(reply) } : { result: reply }));
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async request<TResult>(req: UpstashRequest): Promise<UpstashResponse<TResult>> {
      const kind = req.path?.[0];
      if (kind === 'pipeline' || kind === 'multi-exec') {
        if (!isCommandList(req.body)) return { error: `${kind} expects a list of commands` };
        const replies = kind === 'pipeline' ? await Promise.all(req.body.map(run)) : await transaction(req.body);
        // The SDK reads pipeline answers as the array itself, as the REST service sends them.
        return replies as unknown as UpstashResponse<TResult>;
      }
      if (req.path && req.path.length > 0) return { error: `Unsupported request path /${req.path.join('/')}` };
      if (!Array.isArray(req.body)) return { error: 'A command must be an array' };
      return (await run(req.body)) as UpstashResponse<TResult>;
    },
  };
}

/**
 * An `@upstash/redis` `Redis` over a node-redis v5 client: `new Redis(nodeRedisRequester(client))`.
 *
 * @example
 * ```ts
 * const redis = upstashRedisFromNodeRedis(await createClient().connect());
 * const { success } = await new Ratelimit({ redis, limiter: Ratelimit.fixedWindow(5, '60 s') }).limit('key');
 * ```
 */
export function upstashRedisFromNodeRedis(client: NodeRedisClientLike, options: NodeRedisBridgeOptions = {}): Redis {
  return new Redis(nodeRedisRequester(client, options));
}
