#!/usr/bin/env node
// The `sledge-agent` command: runs the built CPU agent (apps/agent/dist). A
// committed file, so pnpm can link the bin at install time, before any build.
import { existsSync } from 'node:fs';

const main = new URL('../dist/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('sledge-agent: the agent is not built yet: run "pnpm build" in the repository first\n');
  process.exit(2);
}
await import(main.href);
