#!/usr/bin/env node
// The `sledge` command: runs the built CLI (apps/cli/dist). Installed by the
// workspace as node_modules/.bin/sledge, so `pnpm exec sledge ...` works from
// the repository root once `pnpm build` (or `pnpm start`/`pnpm test`) has run.
import { existsSync } from 'node:fs';

const main = new URL('../dist/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('sledge: the CLI is not built yet: run "pnpm build" in the repository first\n');
  process.exit(2);
}
await import(main.href);
