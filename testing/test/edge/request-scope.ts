/** App code using a built-in the edge config allows (`allowBuiltins: ['async_hooks']`). */
import { AsyncLocalStorage } from 'node:async_hooks';

export const requestScope = new AsyncLocalStorage<string>();
