/**
 * `framework triggers list | info <name> | test <name> --event <json> | replay <name> | generate-types`. This module
 * imports `@framework/trigger`; `framework` loads it only for these commands, so the auth commands run without it.
 * @module
 * @internal
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { scanTriggerDir, type TriggerDirScan } from '@framework/trigger/cli';
import { jsonFlag, UsageError, type CliIO, type ParsedArgs } from '../io.js';
import { describeDefinition, keyDetail, table } from './describe.js';
import { envOption } from './env-option.js';
import { defaultTypesPath, renderTypes, writeTypes } from './generate-types.js';
import { replayCommand } from './replay-command.js';
import { testTrigger } from './test-command.js';

/** The trigger commands, by name. */
const COMMANDS = ['list', 'info', 'test', 'replay', 'generate-types'] as const;

/**
 * Runs `framework triggers <command>`; `positional` is what follows `triggers`.
 * @returns 0 on success; 1 when `list` found a file that does not load (it is listed with its error), the named
 *   trigger's file does not load, `generate-types` met a file that does not load, or a test run failed.
 * @throws {UsageError} for an unknown command or trigger, a missing name, an extra argument, or a missing directory.
 */
export async function triggersCommand(io: CliIO, args: ParsedArgs, positional: readonly string[]): Promise<number> {
  const [command, name, extra] = positional;
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
  if (!COMMANDS.includes(command as (typeof COMMANDS)[number]))
    throw new UsageError(`unknown triggers command "${command ?? ''}" (${COMMANDS.join(', ')})`);
  const dir = resolve(
    io.cwd,
    typeof args.flags.get('dir') === 'string' ? (args.flags.get('dir') as string) : 'app/triggers',
  );
  if (!existsSync(dir)) throw new UsageError(`no trigger directory at ${dir} (pass --dir <path>)`);
  const scan = await scanTriggerDir(dir);
  switch (command) {
    case 'list':
      return list(io, scan);
    case 'generate-types':
      return await generateTypes(io, args, dir, scan);
    case 'info':
      known(scan, required(name, 'info <name>'));
      io.stdout.write(`${JSON.stringify(describeDefinition(name!, scan.triggers[name!]!), null, 2)}\n`);
      return 0;
    case 'test': {
      known(scan, required(name, 'test <name> --event <json>'));
      const event = jsonFlag(args, 'event');
      return await testTrigger(io, scan.triggers, name!, event, await envOption(args, io.cwd));
    }
    default:
      known(scan, required(name, 'replay <name> --all'));
      return await replayCommand(io, args, scan.triggers, name!);
  }
}

function required(name: string | undefined, usage: string): string {
  if (name === undefined) throw new UsageError(`missing trigger name: framework triggers ${usage}`);
  return name;
}

/**
 * @throws Error (exit 1) with the file's error when `name`'s file does not load; {@link UsageError} when no file
 *   gives `name`.
 */
function known(scan: TriggerDirScan, name: string): void {
  if (scan.triggers[name]) return;
  const failure = scan.failed[name];
  if (failure) throw failure;
  const names = Object.keys(scan.files);
  throw new UsageError(`unknown trigger "${name}" (known: ${names.length ? names.join(', ') : 'none'})`);
}

/** Every trigger file, in name order: loaded ones with their source, failed ones as `ERROR` with the message. */
function list(io: CliIO, scan: TriggerDirScan): number {
  const rows = Object.keys(scan.files).map((name) => {
    const definition = scan.triggers[name];
    return definition
      ? [name, definition.source.type, keyDetail(definition.source)]
      : [name, 'ERROR', scan.failed[name]!.message.split('\n')[0]!];
  });
  io.stdout.write(rows.length ? `${table([['NAME', 'SOURCE', 'DETAIL'], ...rows])}\n` : 'no triggers found\n');
  const failed = Object.keys(scan.failed).length;
  if (failed === 0) return 0;
  io.stderr.write(`framework: ${failed} trigger file${failed === 1 ? '' : 's'} did not load (listed as ERROR)\n`);
  return 1;
}

async function generateTypes(io: CliIO, args: ParsedArgs, dir: string, scan: TriggerDirScan): Promise<number> {
  const [failure] = Object.values(scan.failed);
  // Declarations without one trigger would turn its emits into type errors: refuse rather than write them.
  if (failure) throw failure;
  const out = args.flags.get('out');
  const outFile = typeof out === 'string' ? resolve(io.cwd, out) : defaultTypesPath(dir);
  await writeTypes(outFile, renderTypes(scan.triggers, scan.files, outFile));
  io.stdout.write(`wrote ${outFile} (${Object.keys(scan.triggers).length} triggers)\n`);
  return 0;
}
