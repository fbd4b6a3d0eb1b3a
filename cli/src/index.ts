/**
 * `@framework/cli`: the `framework` command. `framework auth migrate | generate` needs `@framework/auth`;
 * `framework triggers list | info | test | replay | generate-types` needs `@framework/trigger`. Both are optional
 * peers, imported when their commands run.
 *
 * @module
 */
import { generateCommand, migrateCommand } from './auth/commands.js';
import { parseArgs, UsageError, type CliIO } from './io.js';
import { importPeer } from './peer.js';
import { packageVersion } from './version.js';

export type { CliIO } from './io.js';

const USAGE = `Usage: framework triggers <command> [--dir app/triggers]
       framework auth <migrate --config <module> | generate --dialect <sqlite|postgres|mysql> [--prefix auth_] [--plugins all|none|<a,b>] [--config <module>] [--drizzle] [--out <file>]>
       framework help | -h | --help
       framework -v | --version

Triggers (needs @framework/trigger):
  list                              name, source type and key detail of every trigger
                                    (a file that does not load is listed as ERROR with its message; exit 1)
  info <name>                       source and config (defaults applied) as JSON
  test <name> --event <json>        run the handler once; the event must fit the source (queue: {"messages": [{"body": …}]})
                                    --env <json | module.ts> sets ctx.env
                                    (a module's default export: the env, or a function building it)
  generate-types [--out <file>]     write TriggerRegistry declarations for ctx.emit
  replay <name> (--id <id[,id…]> | --all) [--redis <url>] [--prefix <prefix>]
                                    move failed messages of a queue trigger back to its queue
                                    (BullMQ engine; Redis from --redis or REDIS_URL)

Auth (needs @framework/auth):
  migrate --config <module>         run auth.migrate(); the module exports \`auth\` (named or default), or a
                                    function returning it (.js/.mjs import directly; .ts needs jiti)
  generate --dialect <d>            print (or --out) the storage schema as SQL: the adapter's tables, then the
                                    plugins' (two-factor, admin, organizations, audit-log, api-keys, jwt, anonymous,
                                    username, phone-number, oidc-provider; --plugins)
                                    --config <module>: with the columns of its auth's user.additionalFields
                                    --drizzle: the Drizzle schema module of the adapter's tables instead
                                    (sqlite or postgres; needs drizzle-orm)
`;

/**
 * Runs the CLI in-process and resolves with the exit code: 0 success (help with no arguments, `help`, `-h`,
 * `--help`; the version with `-v`, `--version`), 1 a failed trigger test, a trigger file that does not load (`list`
 * still lists the others) or a config module that does not load, 2 a usage error (unknown command or trigger name,
 * bad JSON, an `--event` that does not fit the trigger's source, a missing `@framework/auth` or
 * `@framework/trigger`), each as one line on stderr.
 *
 * @example
 * ```ts
 * import { runCli } from '@framework/cli';
 *
 * const code = await runCli(['triggers', 'list', '--dir', 'app/triggers'], {
 *   cwd: process.cwd(),
 *   stdout: process.stdout,
 *   stderr: process.stderr,
 * });
 * ```
 */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  try {
    const args = parseArgs(argv);
    const [group, command, name] = args.positional;
    if (args.flags.has('version')) {
      io.stdout.write(`@framework/cli ${await packageVersion()}\n`);
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
    const { triggersCommand } = await importPeer('@framework/trigger', () => import('./triggers/commands.js'));
    return await triggersCommand(io, args, args.positional.slice(1));
  } catch (error) {
    const usage = error instanceof UsageError;
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`framework: ${message.split('\n')[0]}\n`);
    return usage ? 2 : 1;
  }
}

/**
 * Runs the CLI on `process` and sets `process.exitCode`. What the `framework` bin runs.
 * @example
 * ```ts
 * import { main } from '@framework/cli';
 *
 * await main(['auth', 'generate', '--dialect', 'postgres']);
 * ```
 */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  process.exitCode = await runCli(argv, { cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr });
}
