// Longest first (docs/testing.md, "Longest first"): the slow-stage files run in
// parallel, a few per package, and a package's stage ends with its last file.
// vitest's own order needs its results cache (node_modules/.vite), which a fresh
// clone has not got; without it, it runs the largest files first, so long files
// that happen to be small started last and ran on alone at the end. This
// sequencer orders by each file's own time measured in a whole slow stage
// (scripts/test-durations.json, written by scripts/test-durations.mjs), longest
// first; a file not measured yet counts as UNMEASURED_S, ties by path. A run
// with no measured file at all (the unit and solo tiers) keeps vitest's order.
import { readFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseSequencer } from 'vitest/node';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const DURATIONS = JSON.parse(readFileSync(new URL('./test-durations.json', import.meta.url), 'utf8'));
export const UNMEASURED_S = 30;

/** Seconds a file is expected to take: its measured own time, or UNMEASURED_S. */
export function expectedSeconds(moduleId) {
  return DURATIONS[relative(ROOT, moduleId)] ?? UNMEASURED_S;
}

export class LongestFirstSequencer extends BaseSequencer {
  async sort(files) {
    if (!files.some((f) => relative(ROOT, f.moduleId) in DURATIONS)) return super.sort(files);
    return [...files].sort((a, b) => expectedSeconds(b.moduleId) - expectedSeconds(a.moduleId) || a.moduleId.localeCompare(b.moduleId));
  }
}
