#!/usr/bin/env node
// The `framework` command. Resolves the package's own `./cli` export: the
// built dist normally, or the TypeScript source under `--conditions=@framework/source`.
import { main } from '@framework/trigger/cli';

await main();
