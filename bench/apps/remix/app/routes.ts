import { index, type RouteConfig } from '@react-router/dev/routes';

export default [index('routes/bench.ts')] satisfies RouteConfig;
