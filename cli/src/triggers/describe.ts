import type { TriggerDefinition, TriggerSource } from '@framework/trigger';

/** The one detail that identifies a trigger in a list: cron, queue, path, … */
export function keyDetail(source: TriggerSource): string {
  switch (source.type) {
    case 'scheduled':
      return `${source.every ?? source.cron} (${source.timezone ?? 'UTC'})`;
    case 'queue':
      return `queue ${source.name} (batch ${source.batchSize ?? 10})`;
    case 'webhook':
      return `${(source.methods ?? ['POST']).join(',')} ${source.path}${source.verifier ? ' (verified)' : ''}`;
    case 'objectstore':
      return `bucket ${source.bucket}: ${source.events.join(', ')}`;
    case 'email':
      return source.address ?? (source.domain ? `@${source.domain}` : 'all mail');
    case 'sqldb':
      return `${source.database}: ${source.tables?.join(', ') ?? 'all tables'} ${source.operations?.join('/') ?? 'INSERT/UPDATE/DELETE'}`;
    case 'tail':
      return `workers ${source.workers.join(', ')}`;
  }
}

/** A JSON-friendly view of a definition: functions become `"[function name]"`. */
export function describeDefinition(name: string, definition: TriggerDefinition): Record<string, unknown> {
  const source = Object.fromEntries(
    Object.entries(definition.source).map(([key, value]) => [
      key,
      typeof value === 'function' ? `[function ${value.name || 'anonymous'}]` : value,
    ]),
  );
  const { retries, retryDelay, timeout, observability } = definition.config;
  return { name, source, config: { retries, retryDelay, timeout, observability } };
}

/** Aligns rows into columns separated by two spaces. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '))
    .join('\n');
}
