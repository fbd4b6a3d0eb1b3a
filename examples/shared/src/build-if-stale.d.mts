/** Types of build-if-stale.mjs (plain JavaScript so that `node start.mjs` runs it uncompiled). */

/** The newest modification time (ms since the epoch) of the example's inputs in `dir`. */
export function newestInput(dir: string): Promise<number>;

/** Builds the example in `dir` into `output` unless that build is current; resolves whether it built. */
export function buildIfStale(options: {
  dir: string;
  output: string;
  command: string;
  args: string[];
  /** Lines of the build's output to drop (known upstream notices, each explained where it is passed). */
  quiet?: RegExp[];
}): Promise<boolean>;
