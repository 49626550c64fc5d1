import { describe, expect, it } from 'vitest';
import { codeSpans, parseInstall } from './install.js';

describe('install steps', () => {
  it('splits the introduction from numbered steps, joining continued lines', () => {
    const text = 'lib has no binding. To make it load:\n1. Install it and `export X=1`,\n   or `export Y=2`.\n2. Run `pnpm rebuild lib`.';
    expect(parseInstall(text)).toEqual({
      intro: ['lib has no binding. To make it load:'],
      steps: ['Install it and `export X=1`, or `export Y=2`.', 'Run `pnpm rebuild lib`.'],
    });
    expect(parseInstall('pnpm add mysql2')).toEqual({ intro: ['pnpm add mysql2'], steps: [] });
  });
  it('marks the code spans', () => {
    expect(codeSpans('Run `pnpm rebuild` now')).toEqual([
      { text: 'Run ', code: false },
      { text: 'pnpm rebuild', code: true },
      { text: ' now', code: false },
    ]);
  });
});
