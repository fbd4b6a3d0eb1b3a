import { bullmqEngine, createTriggerRuntime, type LoadedTriggers, type ReplaySelector } from '@framework/trigger';
import { UsageError, type CliIO, type ParsedArgs } from '../io.js';

/** The selector of `replay`: `--id a,b` or `--all`, exactly one. @throws {UsageError} */
export function replaySelector(args: ParsedArgs): ReplaySelector {
  const id = args.flags.get('id');
  const all = args.flags.get('all') === true;
  if ((id === undefined) === !all) throw new UsageError('replay needs exactly one of --id <id[,id…]> or --all');
  if (all) return { all: true };
  if (id === true || id === undefined) throw new UsageError('--id needs a value');
  return {
    id: id
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  };
}

/**
 * `framework triggers replay <name> (--id <ids> | --all) [--redis <url>] [--prefix <prefix>]`:
 * moves failed messages of queue trigger `name` back to its queue on the
 * BullMQ engine (Redis from `--redis` or `REDIS_URL`). Prints the replayed ids.
 */
export async function replayCommand(
  io: CliIO,
  args: ParsedArgs,
  triggers: LoadedTriggers,
  name: string,
  environment: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const selector = replaySelector(args);
  const redis = args.flags.get('redis') ?? environment.REDIS_URL;
  if (typeof redis !== 'string')
    throw new UsageError('replay works on the BullMQ engine: pass --redis <url> or set REDIS_URL');
  const prefix = args.flags.get('prefix');
  const engine = bullmqEngine({ connection: redis, ...(typeof prefix === 'string' ? { prefix } : {}) });
  try {
    const runtime = createTriggerRuntime({ triggers, env: {}, engine });
    const ids = await runtime.replay(name, selector);
    io.stdout.write(`replayed ${ids.length} message(s)${ids.length > 0 ? `: ${ids.join(', ')}` : ''}\n`);
    return 0;
  } finally {
    await engine.stop();
  }
}
