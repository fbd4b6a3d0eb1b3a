/**
 * Redis commands and CPU time per message, raw BullMQ `Worker` vs `bullmqEngine`, at equal concurrency: figures
 * that a loaded machine does not skew, unlike wall clock. Each case drains its own queue (its own key prefix)
 * in a child process, which reports its CPU µs per message; this process watches Redis with MONITOR and counts,
 * per command name, the commands sent while the queue drained (between the child's `filled` and `drained`
 * marks, ECHO commands it sends), both those clients sent and those Lua scripts ran inside Redis. Run it
 * directly to print the figures as JSON (`tsx --conditions=@framework/source bullmq-commands.ts [width...]`).
 */
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { createClient } from 'redis';
import {
  deletePrefix,
  engineDrain,
  inChild,
  rawDrain,
  REDIS_URL,
  withClient,
  type DrainFigures,
} from './bullmq-workload.js';

/** `concurrency` set: the engine runs batches of 1, that many in flight (the per-message form). */
type Case = { kind: 'raw' | 'engine'; width: number; total: number; prefix: string; concurrency?: boolean };

/** What one case cost, per drained message. */
export interface CaseCost extends DrainFigures {
  /** Commands clients sent per message, and by command name (EVALSHA named by its first key). */
  commandsPerMessage: number;
  byCommand: Record<string, number>;
  /** Commands Lua scripts ran inside Redis, per message. */
  scriptCallsPerMessage: number;
}

/** `EVALSHA <sha> <numkeys> <key> …` is named by its first key without the prefix: `evalsha bench:wait`. */
function commandName(args: string[], prefix: string): string {
  const name = (args[0] ?? '').toLowerCase();
  if (name !== 'evalsha' && name !== 'eval') return name;
  return `${name} ${(args[3] ?? '').replace(`${prefix}:`, '')}`;
}

/** The quoted arguments of a MONITOR line: `1700000000.1 [0 127.0.0.1:5000] "get" "k"` → ['get', 'k']. */
function monitorArgs(line: string): { source: string; args: string[] } {
  const source = /\[\d+ ([^\]]+)\]/.exec(line)?.[1] ?? '';
  const args = [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!);
  return { source, args };
}

async function measure(c: Case): Promise<CaseCost> {
  const monitor = createClient({ url: REDIS_URL });
  await monitor.connect();
  let phase: 'fill' | 'drain' | 'after' = 'fill';
  let commands = 0;
  let scriptCalls = 0;
  const byCommand: Record<string, number> = {};
  await monitor.monitor((line: string) => {
    if (!line.includes(c.prefix)) return;
    const { source, args } = monitorArgs(line);
    if (args[0]?.toLowerCase() === 'echo') {
      if (args[1] === `${c.prefix}:filled`) phase = 'drain';
      if (args[1] === `${c.prefix}:drained`) phase = 'after';
      return;
    }
    if (phase !== 'drain') return;
    if (source === 'lua') scriptCalls++;
    else {
      commands++;
      const name = commandName(args, c.prefix);
      byCommand[name] = (byCommand[name] ?? 0) + 1;
    }
  });
  try {
    const figures = await runInChild(c);
    // MONITOR lines trail the commands a little: wait for an echo of our own to come back.
    const fence = `${c.prefix}:fence`;
    let fenced!: () => void;
    const seen = new Promise<void>((resolve) => (fenced = resolve));
    const watcher = createClient({ url: REDIS_URL });
    await watcher.connect();
    await watcher.monitor((line: string) => {
      if (line.includes(fence)) fenced();
    });
    await withClient((client) => client.echo(fence));
    await seen;
    await watcher.destroy();
    const per = (n: number) => n / c.total;
    return {
      ...figures,
      commandsPerMessage: per(commands),
      scriptCallsPerMessage: per(scriptCalls),
      byCommand: Object.fromEntries(
        Object.entries(byCommand)
          .sort((a, b) => b[1] - a[1])
          .map(([name, n]) => [name, Number(per(n).toFixed(3))]),
      ),
    };
  } finally {
    await monitor.destroy();
    await deletePrefix(c.prefix);
  }
}

/** Runs one case in a child process, so its figures are its own. */
function runInChild(c: Case): Promise<DrainFigures> {
  return inChild(import.meta.url, 'BENCH_BULLMQ_COMMANDS_CASE', c);
}

async function runCase(c: Case): Promise<DrainFigures> {
  return withClient(async (client) => {
    const mark = async (phase: 'filled' | 'drained') => void (await client.echo(`${c.prefix}:${phase}`));
    const options = { prefix: c.prefix, mark };
    if (c.kind === 'raw') return rawDrain(c.width, c.total, options);
    const shape = c.concurrency ? { batchSize: 1, concurrency: c.width } : { batchSize: c.width };
    return engineDrain(shape, c.total, options);
  });
}

/** Engine/raw ratios of one engine case against raw before and after it. */
function versus(engine: CaseCost, raw: CaseCost, rawAfter: CaseCost): Record<string, number> {
  const mean = (f: (c: CaseCost) => number) => (f(raw) + f(rawAfter)) / 2;
  return {
    'engine/raw commands per message': engine.commandsPerMessage / mean((c) => c.commandsPerMessage),
    'engine/raw CPU per message': engine.cpuUsPerMessage / mean((c) => c.cpuUsPerMessage),
    'engine/raw rate (raw before and after)': engine.rate / mean((c) => c.rate),
  };
}

/**
 * Raw vs engine at each width N: the engine in batches of N (`batch`) and in batches of 1 with N in flight
 * (`perMessage`); commands and CPU µs per message, and rates.
 */
export async function benchBullmqCommands(widths = [10, 100], total = 2_000): Promise<Record<string, unknown>> {
  const results: Record<string, unknown> = {};
  for (const width of widths) {
    const prefix = () => `bench-cmd-${randomBytes(4).toString('hex')}`;
    const raw = await measure({ kind: 'raw', width, total, prefix: prefix() });
    const batch = await measure({ kind: 'engine', width, total, prefix: prefix() });
    const perMessage = await measure({ kind: 'engine', width, total, prefix: prefix(), concurrency: true });
    const rawAfter = await measure({ kind: 'raw', width, total, prefix: prefix() });
    results[`width ${width}`] = {
      raw,
      rawAfter,
      [`engine batch ${width}`]: { ...batch, ...versus(batch, raw, rawAfter) },
      [`engine batch 1 × concurrency ${width}`]: { ...perMessage, ...versus(perMessage, raw, rawAfter) },
    };
  }
  return results;
}

if (process.env.BENCH_BULLMQ_COMMANDS_CASE) {
  console.log(JSON.stringify(await runCase(JSON.parse(process.env.BENCH_BULLMQ_COMMANDS_CASE) as Case)));
  process.exit(0);
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const widths = process.argv.slice(2).map(Number);
  console.log(JSON.stringify(await benchBullmqCommands(widths.length > 0 ? widths : undefined), null, 2));
  process.exit(0);
}
