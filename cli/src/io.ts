/** Where the CLI writes, and where it runs. */
export interface CliIO {
  cwd: string;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** A usage error: one line on stderr, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Parsed command line: positional words and `--flag value` / `--flag=value` options. */
export interface ParsedArgs {
  positional: string[];
  flags: Map<string, string | true>;
}

const VALUE_FLAGS = new Set(['dir', 'event', 'env', 'out', 'id', 'redis', 'prefix', 'config', 'dialect', 'plugins']);
const BOOLEAN_FLAGS = new Set(['drizzle', 'help', 'all', 'version']);

/** One-letter aliases: `-h` is `--help`, `-v` is `--version`. */
const SHORT_FLAGS = new Map([
  ['-h', 'help'],
  ['-v', 'version'],
]);

/**
 * Splits `argv` into positional words and flags (`--name value`, `--name=value`, boolean `--name`, `-h`, `-v`).
 * @throws {UsageError} for an unknown option, a value flag without its value, or an unknown one-letter option.
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const short = SHORT_FLAGS.get(arg);
    if (short) {
      flags.set(short, true);
      continue;
    }
    if (/^-[^-]/.test(arg)) throw new UsageError(`unknown option ${arg} (-h for help)`);
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (eq !== -1) flags.set(name, arg.slice(eq + 1));
    else if (VALUE_FLAGS.has(name)) {
      const value = argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      flags.set(name, value);
    } else flags.set(name, true);
  }
  for (const name of flags.keys()) {
    if (!VALUE_FLAGS.has(name) && !BOOLEAN_FLAGS.has(name)) throw new UsageError(`unknown option --${name}`);
  }
  return { positional, flags };
}

/** Parses a JSON option value. @throws {UsageError} on invalid JSON */
export function jsonFlag(args: ParsedArgs, name: string): unknown {
  const value = args.flags.get(name);
  if (value === undefined) return undefined;
  if (value === true) throw new UsageError(`--${name} needs a JSON value`);
  try {
    return JSON.parse(value);
  } catch (error) {
    throw new UsageError(`--${name} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}
