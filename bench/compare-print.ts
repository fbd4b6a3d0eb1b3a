/** Prints the side-by-side table of `compare.ts` with a "× bare Hono" column. */
import { compareSessionReads } from './compare.js';

export async function printComparison(): Promise<void> {
  const rows = await compareSessionReads();
  const bare = rows.find((r) => r.name === 'bare Hono app.request')?.micros;
  console.log(`== session reads side by side (tinybench, median µs per call, Node ${process.versions.node})`);
  console.log('| case | µs | × bare Hono |\n|---|---|---|');
  for (const { name, micros } of rows) {
    if (typeof micros !== 'number') console.log(`| ${name} | ${micros} | |`);
    else
      console.log(`| ${name} | ${micros.toFixed(1)} | ${typeof bare === 'number' ? (micros / bare).toFixed(2) : ''} |`);
  }
}
