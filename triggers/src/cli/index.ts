/**
 * The `framework` command line: `framework triggers list | info <name> |
 * test <name> --event <json> | replay <name> | generate-types`.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { discoverTriggerFiles, loadTriggersFromDir, type LoadedTriggers } from '../load.js';
import { describeDefinition, keyDetail, table } from './describe.js';
import { defaultTypesPath, renderTypes, writeTypes } from './generate-types.js';
import { jsonFlag, parseArgs, UsageError, type CliIO, type ParsedArgs } from './io.js';
import { replayCommand } from './replay-command.js';
import { testTrigger } from './test-command.js';
import { envOption } from './env-option.js';
import { generateCommand, migrateCommand } from './auth-commands.js';
import { packageVersion } from './version.js';

export type { CliIO } from './io.js';

const USAGE = `Usage: framework triggers <command> [--dir app/triggers]
       framework auth <migrate --config <module> | generate --dialect <sqlite|postgres|mysql> [--prefix auth_] [--out <file>]>
       framework help | -h | --help
       framework -v | --version

Commands:
  list                              name, source type and key detail of every trigger
  info <name>                       source and config (defaults applied) as JSON
  test <name> --event <json>        run the handler once; the event must fit the source (queue: {"messages": [{"body": …}]})
                                    --env <json | module.ts> sets ctx.env
                                    (a module's default export: the env, or a function building it)
  generate-types [--out <file>]     write TriggerRegistry declarations for ctx.emit
  replay <name> (--id <id[,id…]> | --all) [--redis <url>] [--prefix <prefix>]
                                    move failed messages of a queue trigger back to its queue
                                    (BullMQ engine; Redis from --redis or REDIS_URL)

Auth:
  migrate --config <module>         run auth.migrate(); the module exports \`auth\` (named or default), or a
                                    function returning it (.js/.mjs import directly; .ts needs jiti)
  generate --dialect <d>            print (or --out) the storage schema as SQL
`;

/**
 * Runs the CLI in-process and resolves with the exit code: 0 success (help with no arguments, `help`, `-h`,
 * `--help`; the version with `-v`, `--version`), 1 a failed trigger test or a trigger directory or config module that
 * does not load, 2 a usage error (unknown command or trigger name, bad JSON, an `--event` that does not fit the
 * trigger's source), each as one line on stderr.
 *
 * @example
 * ```ts
 * const code = await runCli(['triggers', 'list', '--dir', 'app/triggers'], { cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  try {
    const args = parseArgs(argv);
    const [group, command, name, ...rest] = args.positional;
    if (args.flags.has('version')) {
      io.stdout.write(`@framework/trigger ${await packageVersion()}\n`);
      return 0;
    }
    if (args.flags.has('help') || group === undefined || group === 'help') {
      io.stdout.write(USAGE);
      return 0;
    }
    if (group === 'auth') {
      if (name !== undefined) throw new UsageError(`unexpected argument "${name}"`);
      if (command === 'generate') return await generateCommand(io, args);
      if (command === 'migrate') return await migrateCommand(io, args);
      throw new UsageError(`unknown auth command "${command ?? ''}" (migrate, generate)`);
    }
    if (group !== 'triggers') throw new UsageError(`unknown command "${group}" (try: framework triggers list)`);
    if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
    const dir = resolve(
      io.cwd,
      typeof args.flags.get('dir') === 'string' ? (args.flags.get('dir') as string) : 'app/triggers',
    );
    switch (command) {
      case 'list':
        return await list(io, await load(dir));
      case 'info':
        return info(io, await load(dir), required(name, 'info <name>'));
      case 'test':
        return await test(io, args, await load(dir), required(name, 'test <name> --event <json>'));
      case 'generate-types':
        return await generateTypes(io, args, dir);
      case 'replay': {
        const triggers = await load(dir);
        const trigger = required(name, 'replay <name> --all');
        known(triggers, trigger);
        return await replayCommand(io, args, triggers, trigger);
      }
      default:
        throw new UsageError(`unknown triggers command "${command ?? ''}" (list, info, test, replay, generate-types)`);
    }
  } catch (error) {
    const usage = error instanceof UsageError;
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`framework: ${message.split('\n')[0]}\n`);
    return usage ? 2 : 1;
  }
}

/** Runs the CLI on `process` and sets `process.exitCode`. Used by the `framework` bin. */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  process.exitCode = await runCli(argv, { cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr });
}

function required(name: string | undefined, usage: string): string {
  if (name === undefined) throw new UsageError(`missing trigger name: framework triggers ${usage}`);
  return name;
}

async function load(dir: string): Promise<LoadedTriggers> {
  if (!existsSync(dir)) throw new UsageError(`no trigger directory at ${dir} (pass --dir <path>)`);
  return loadTriggersFromDir(dir);
}

function known(triggers: LoadedTriggers, name: string) {
  const definition = triggers[name];
  if (!definition) {
    const names = Object.keys(triggers);
    throw new UsageError(`unknown trigger "${name}" (known: ${names.length ? names.join(', ') : 'none'})`);
  }
  return definition;
}

async function list(io: CliIO, triggers: LoadedTriggers): Promise<number> {
  const rows = Object.entries(triggers).map(([name, d]) => [name, d.source.type, keyDetail(d.source)]);
  io.stdout.write(rows.length ? `${table([['NAME', 'SOURCE', 'DETAIL'], ...rows])}\n` : 'no triggers found\n');
  return 0;
}

function info(io: CliIO, triggers: LoadedTriggers, name: string): number {
  io.stdout.write(`${JSON.stringify(describeDefinition(name, known(triggers, name)), null, 2)}\n`);
  return 0;
}

async function test(io: CliIO, args: ParsedArgs, triggers: LoadedTriggers, name: string): Promise<number> {
  known(triggers, name);
  const event = jsonFlag(args, 'event');
  const env = await envOption(args, io.cwd);
  return testTrigger(io, triggers, name, event, env);
}

async function generateTypes(io: CliIO, args: ParsedArgs, dir: string): Promise<number> {
  const triggers = await load(dir);
  const out = args.flags.get('out');
  const outFile = typeof out === 'string' ? resolve(io.cwd, out) : defaultTypesPath(dir);
  await writeTypes(outFile, renderTypes(triggers, await discoverTriggerFiles(dir), outFile));
  io.stdout.write(`wrote ${outFile} (${Object.keys(triggers).length} triggers)\n`);
  return 0;
}
