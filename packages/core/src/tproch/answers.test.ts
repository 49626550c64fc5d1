import { describe, expect, it } from 'vitest';
import { answerSetOf, compareTprochAnswer, parseAnswerSet, TPROCH_ANSWER_COLUMNS } from './answers.js';

/** Q1's first two rows as dbgen's answers/q1.out has them (padding kept, as in the original file). */
const Q1 = parseAnswerSet(
  [
    'l|l|sum_qty                                  |sum_base_price   |sum_disc_price  |sum_charge      |avg_qty|avg_price|avg_disc|count_order           ',
    'A|F|37734107.00|56586554400.73|53758257134.87|55909065222.83|25.52|38273.13|0.05|               1478493',
    'N|F|991417.00|1487504710.38|1413082168.05|1469649223.19|25.52|38284.47|0.05|                 38854',
  ].join('\n'),
);
/** The rows as PostgreSQL returns them (numeric as text with more digits, count(*) as bigint text). */
const pgQ1 = (): unknown[][] => [
  ['A', 'F', '37734107.00', '56586554400.73', '53758257134.8700', '55909065222.827692', '25.5220058532573370', '38273.129734621672', '0.04998529583839761162', '1478493'],
  ['N', 'F', '991417.00', '1487504710.38', '1413082168.0541', '1469649223.194375', '25.5164719205229835', '38284.467760848304', '0.05009342667421629691', '38854'],
];

describe('parseAnswerSet', () => {
  it('reads the header and the rows without the column padding', () => {
    expect(Q1.columns[2]).toBe('sum_qty');
    expect(Q1.rows[1]).toEqual(['N', 'F', '991417.00', '1487504710.38', '1413082168.05', '1469649223.19', '25.52', '38284.47', '0.05', '38854']);
  });
});

describe('compareTprochAnswer (TPC-H clause 2.1.3.5)', () => {
  it('has a column kind for every column of the 22 queries', () => {
    expect(Object.keys(TPROCH_ANSWER_COLUMNS)).toHaveLength(22);
  });

  it('passes rows equal at 1/100, whatever the engine returns numbers as', () => {
    expect(compareTprochAnswer(1, Q1, pgQ1())).toEqual({ query: 1, status: 'pass', detail: '2 rows match the answer set' });
    const asNumbers = pgQ1().map((r) => r.map((c, i) => (i >= 2 ? Number(c) : c)));
    expect(compareTprochAnswer(1, Q1, asNumbers).status).toBe('pass');
  });

  it('passes a SUM within 100 of the answer (saying it is not equal), fails one more than 100 away', () => {
    const near = pgQ1();
    near[0]![3] = '56586554450.73';
    const w = compareTprochAnswer(1, Q1, near);
    expect(w.status).toBe('pass');
    expect(w.detail).toMatch(/row 1: sum_base_price 56586554450.73 is within 100 of 56586554400.73/);
    const far = pgQ1();
    far[0]![3] = '56586554600.73';
    const f = compareTprochAnswer(1, Q1, far);
    expect(f.status).toBe('fail');
    expect(f.detail).toBe('row 1: sum_base_price 56586554600.73 is more than 100 from 56586554400.73');
  });

  it('passes an AVG within 1% once rounded to 1/100 (saying it is not equal), fails one beyond 1%', () => {
    const near = pgQ1();
    near[1]![6] = '25.70';
    expect(compareTprochAnswer(1, Q1, near)).toMatchObject({ status: 'pass', detail: expect.stringContaining('avg_qty 25.70 rounds to 25.7, within 1% of 25.52 but not equal') });
    const far = pgQ1();
    far[1]![6] = '25.80';
    const f = compareTprochAnswer(1, Q1, far);
    expect(f.status).toBe('fail');
    expect(f.detail).toMatch(/row 2: avg_qty 25.80 rounds to 25.8, more than 1% from 25.52/);
  });

  it('fails a COUNT off by one, a wrong string, a wrong row count', () => {
    const count = pgQ1();
    count[1]![9] = '38855';
    expect(compareTprochAnswer(1, Q1, count)).toMatchObject({ status: 'fail', detail: 'row 2: count_order 38855, expected exactly 38854' });
    const flag = pgQ1();
    flag[0]![1] = 'O';
    expect(compareTprochAnswer(1, Q1, flag)).toMatchObject({ status: 'fail', detail: 'row 1: l "O", expected "F"' });
    expect(compareTprochAnswer(1, Q1, pgQ1().slice(0, 1))).toMatchObject({ status: 'fail', detail: '1 rows, expected 2' });
  });

  it('checks the order: the right rows in another order warn, other rows fail', () => {
    const swapped = pgQ1().reverse();
    const w = compareTprochAnswer(1, Q1, swapped);
    expect(w.status).toBe('warn');
    expect(w.detail).toMatch(/in another order/);
    const other = pgQ1().reverse();
    other[0]![9] = '1';
    expect(compareTprochAnswer(1, Q1, other).status).toBe('fail');
  });

  it('compares a single money value exactly at 1/100 and CHAR padding as blanks (Q2 shape)', () => {
    const q2 = parseAnswerSet('s_acctbal|s_name|n_name|p_partkey|p_mfgr|s_address|s_phone|s_comment\n9938.53|Supplier#000005359|UNITED KINGDOM|185358|Manufacturer#4|QKuHYh|33-429-790-6131|uriously regular');
    const row = ['9938.53', 'Supplier#000005359       ', 'UNITED KINGDOM           ', 185358, 'Manufacturer#4           ', 'QKuHYh', '33-429-790-6131', 'uriously regular'];
    expect(compareTprochAnswer(2, q2, [row]).status).toBe('pass');
    expect(compareTprochAnswer(2, q2, [['9938.54', ...row.slice(1)]])).toMatchObject({ status: 'fail', detail: 'row 1: s_acctbal 9938.54, expected 9938.53 at 1/100' });
  });

  it('NULL matches NULL and nothing else (Q17 over no rows)', () => {
    const nullAnswer = answerSetOf(['avg_yearly'], [[null]]);
    expect(compareTprochAnswer(17, nullAnswer, [[null]]).status).toBe('pass');
    expect(compareTprochAnswer(17, nullAnswer, [['1.00']])).toMatchObject({ status: 'fail', detail: 'row 1: avg_yearly 1.00, expected NULL' });
    expect(compareTprochAnswer(17, answerSetOf(['avg_yearly'], [['1.00']]), [[null]])).toMatchObject({ status: 'fail', detail: 'row 1: avg_yearly "NULL" is not a number (expected 1.00)' });
  });

  it("compares two runs' answers with the same rules (answerSetOf)", () => {
    const a = answerSetOf(Q1.columns, pgQ1());
    expect(compareTprochAnswer(1, a, pgQ1().map((r) => r.map((c, i) => (i >= 2 ? Number(c) : c)))).status).toBe('pass');
  });
});
