#!/usr/bin/env node
import { setTimeout as sleep } from 'node:timers/promises';
import { ArgsError, parseArgs, USAGE } from './args.js';
import { AgentClient } from './client.js';
import { CpuCollector } from './collector.js';
import { formatSample } from './format.js';
import { discoverSystem } from './system.js';

const log = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof ArgsError)) throw e;
    process.stderr.write(`${e.message}\n${USAGE}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const collector = new CpuCollector();
  if (args.once) {
    await collector.prime();
    await sleep(args.intervalMs);
    const sample = await collector.sample();
    process.stdout.write(`${args.json ? JSON.stringify(sample) : formatSample(sample)}\n`);
    return 0;
  }
  const system = await discoverSystem();
  const client = new AgentClient({
    server: args.server!,
    label: args.label,
    system,
    collector,
    intervalMs: args.intervalMs,
    ...(args.token ? { token: args.token } : {}),
    log,
  });
  await client.start();
  await new Promise<void>((resolve) => {
    const stop = () => {
      void client.stop().then(resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    // Started by a server (--with-parent): its end closes our stdin, and we end with it.
    if (args.withParent) {
      process.stdin.once('close', stop);
      process.stdin.resume();
    }
  });
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    log(`fatal: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
