import { describe, expect, it } from 'vitest';
import { tprochAnswerText } from './answers.js';

describe('tprochAnswerText', () => {
  it("reads the SF 1 answer set: Q1's header and first row, Q16's row count", () => {
    const q1 = tprochAnswerText(1).trimEnd().split('\n');
    expect(q1[0]).toBe('l|l|sum_qty|sum_base_price|sum_disc_price|sum_charge|avg_qty|avg_price|avg_disc|count_order');
    expect(q1[1]).toBe('A|F|37734107.00|56586554400.73|53758257134.87|55909065222.83|25.52|38273.13|0.05|1478493');
    expect(tprochAnswerText(16).trimEnd().split('\n')).toHaveLength(1 + 18314);
  });

  it('refuses a query outside 1..22', () => {
    expect(() => tprochAnswerText(23)).toThrow(/queries are 1\.\.22/);
  });
});
