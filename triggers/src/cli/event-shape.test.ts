import { describe, expect, it } from 'vitest';
import type { TriggerSource } from '../types.js';
import { eventShapeProblem } from './event-shape.js';

describe('eventShapeProblem', () => {
  it.each([
    [{ type: 'objectstore', bucket: 'b', events: ['object:create'] }, {}, 'missing "object"'],
    [{ type: 'objectstore', bucket: 'b', events: ['object:create'] }, { object: { size: 1 } }, '--event.object.key'],
    [{ type: 'sqldb', database: 'DB' }, { table: 'items' }, 'missing "operation"'],
    [{ type: 'sqldb', database: 'DB' }, { table: 'items', operation: 'UPSERT' }, '--event.operation: expected one'],
    [{ type: 'tail', workers: ['app'] }, { worker: 'app' }, 'missing "logs"'],
    [{ type: 'email' }, { messages: [] }, '--event.messages: unknown field'],
    [{ type: 'webhook', path: '/h', methods: ['PUT'] }, {}, 'for a PUT webhook'],
  ] as Array<[TriggerSource, unknown, string]>)('%j refuses %j', (source, event, expected) => {
    const problem = eventShapeProblem('t', source, event);
    expect(problem).toMatch(new RegExp(`^--event for "t" \\(${source.type}\\): `));
    expect(problem).toContain(expected);
  });

  it.each([
    [{ type: 'objectstore', bucket: 'b', events: ['object:create'] }, { object: { key: 'a.txt' } }],
    [
      { type: 'sqldb', database: 'DB' },
      { table: 'items', operation: 'DELETE', oldRow: { id: 1 } },
    ],
    [{ type: 'tail', workers: ['app'] }, { logs: [{ outcome: 'exception', timestamp: '2025-01-01T00:00:00Z' }] }],
    [{ type: 'email' }, undefined],
    [{ type: 'webhook', path: '/h', methods: ['GET'] }, {}],
  ] as Array<[TriggerSource, unknown]>)('%j accepts %j', (source, event) => {
    expect(eventShapeProblem('t', source, event)).toBeUndefined();
  });

  it('refuses a value that is not an object', () => {
    expect(eventShapeProblem('t', { type: 'email' }, [1])).toBe('--event must be a JSON object');
  });
});
