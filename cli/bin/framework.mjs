#!/usr/bin/env node
// The `framework` command. Resolves the package's own export: the built dist normally, or the TypeScript source
// under `--conditions=@framework/source`.
import { main } from '@framework/cli';

await main();
