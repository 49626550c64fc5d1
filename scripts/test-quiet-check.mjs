#!/usr/bin/env node
// Self-check of the machine-wide test lock (scripts/test-quiet.mjs), in a private
// lock dir so it never meets real tests: one process runs 1.5 s "tests" back to
// back holding the shared side; another runs a file of three quiet sections in a
// row. Fails when a test is inside while a quiet section runs, or when the
// three quiet sections needed more than one drain (a test got in between).
// Then the 'db' scope: a live-tier reader, a sqlite-tier reader and a file of
// quiet(fn, 'db') sections; fails when a live test is inside a 'db' section, or
// when no sqlite test ran during one (the scope would then be 'all' in effect).
// Usage: node scripts/test-quiet-check.mjs (about 25 s).
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const role = process.argv[2];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const say = (event) => process.send?.({ event, at: Date.now() });

if (!role) {
  const dir = mkdtempSync(join(tmpdir(), 'sledge-lock-check-'));
  const env = { ...process.env, SLEDGE_TEST_LOCK_DIR: dir, SLEDGE_TEST_LOCKS: '1', SLEDGE_TEST_LOCK_LOG: '' };
  const events = [];
  const run = (r) => {
    const c = fork(new URL(import.meta.url), [r], { env });
    c.on('message', (m) => events.push(m));
    return new Promise((res) => c.on('exit', res));
  };
  const reader = run('reader');
  await sleep(300);
  await Promise.all([reader, run('quiet')]);
  // The 'db' scope, with events of its own.
  const all = events.splice(0);
  const runTier = (r, tier) => {
    const c = fork(new URL(import.meta.url), [r], { env: { ...env, SLEDGE_TEST_TIER: tier } });
    c.on('message', (m) => events.push({ ...m, tier }));
    return new Promise((res) => c.on('exit', res));
  };
  const live = runTier('reader', 'live');
  const lite = runTier('reader', 'sqlite');
  await sleep(300);
  await Promise.all([live, lite, runTier('quiet-db', 'live')]);
  const db = events.splice(0);
  events.push(...all);
  rmSync(dir, { recursive: true, force: true });
  events.sort((a, b) => a.at - b.at);
  let inside = 0;
  let quietNow = false;
  let readerBetween = false;
  let quietDone = 0;
  const errors = [];
  for (const e of events) {
    if (e.event === 'test in') {
      inside += 1;
      if (quietNow) errors.push('a test started inside a quiet section');
      if (quietDone > 0 && quietDone < 3) readerBetween = true;
    }
    if (e.event === 'test out') inside -= 1;
    if (e.event === 'quiet in') {
      if (inside > 0) errors.push('a quiet section started with a test inside');
      quietNow = true;
    }
    if (e.event === 'quiet out') {
      quietNow = false;
      quietDone += 1;
    }
  }
  if (quietDone !== 3) errors.push(`${quietDone} quiet sections ran, not 3`);
  if (readerBetween) errors.push('a test ran between the quiet sections of one file: they took a drain each');
  console.log(events.map((e) => e.event).join(', '));
  db.sort((a, b) => a.at - b.at);
  let liveInside = 0;
  let dbQuietNow = false;
  let dbDone = 0;
  let sqliteDuring = 0;
  for (const e of db) {
    if (e.event === 'test in' && e.tier === 'live') {
      liveInside += 1;
      if (dbQuietNow) errors.push("a live test started inside a 'db' quiet section");
    }
    if (e.event === 'test out' && e.tier === 'live') liveInside -= 1;
    if (e.event === 'test in' && e.tier === 'sqlite' && dbQuietNow) sqliteDuring += 1;
    if (e.event === 'quiet in') {
      if (liveInside > 0) errors.push("a 'db' quiet section started with a live test inside");
      dbQuietNow = true;
    }
    if (e.event === 'quiet out') {
      dbQuietNow = false;
      dbDone += 1;
    }
  }
  if (dbDone !== 3) errors.push(`${dbDone} 'db' quiet sections ran, not 3`);
  if (sqliteDuring === 0) errors.push("no sqlite-tier test ran during the 'db' quiet sections");
  console.log(db.map((e) => `${e.tier} ${e.event}`).join(', '));
  if (errors.length > 0) {
    console.error(`test lock check FAILED: ${errors.join('; ')}`);
    process.exit(1);
  }
  console.log('test lock check passed');
} else {
  const m = await import('./test-quiet.mjs');
  if (role === 'reader') {
    for (let i = 0; i < 6; i++) {
      await m.holdShared();
      say('test in');
      await sleep(1500);
      say('test out');
      await m.releaseShared();
    }
  } else {
    await m.holdShared();
    await sleep(200);
    await m.releaseShared();
    const scope = role === 'quiet-db' ? 'db' : 'all';
    for (let i = 0; i < 3; i++) {
      await m.holdShared();
      await m.quiet(async () => {
        say('quiet in');
        await sleep(scope === 'db' ? 2000 : 1000);
        say('quiet out');
      }, scope);
      await m.releaseShared();
    }
  }
  process.disconnect?.();
}
