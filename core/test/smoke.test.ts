import { expect, test } from 'vitest';
import { StorageConflictError } from '../src/storage/types.js';
test('smoke', () => { expect(new StorageConflictError('x', 'email').code).toBe('CONFLICT'); });
