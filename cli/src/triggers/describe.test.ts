import { defineTrigger } from '@framework/trigger';
import { describe, expect, it } from 'vitest';
import { keyDetail } from './describe.js';

const handle = async () => {};

describe('keyDetail', () => {
  it('names an `every` schedule by its interval and a cron schedule by its cron, each with its zone', () => {
    const every = defineTrigger({ source: { type: 'scheduled', every: '30s' }, handle });
    expect(keyDetail(every.source)).toBe('30s (UTC)');
    const cron = defineTrigger({ source: { type: 'scheduled', cron: '0 3 * * *', timezone: 'Europe/Berlin' }, handle });
    expect(keyDetail(cron.source)).toBe('0 3 * * * (Europe/Berlin)');
  });
});
