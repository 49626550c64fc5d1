import { describe, expect, it } from 'vitest';
import { parseAnswerSet } from '@sledge/core';
import { answerCheck, answerSkipReason } from '../src/workloads/tproch/answers.js';

describe('TPROC-H answer check (validity verdict)', () => {
  it('says why the answers cannot be checked: another SF, refresh before the queries, earlier update sets', () => {
    const o = { validation: true, scaleFactor: 1, refresh: false };
    expect(answerSkipReason(o, 0)).toBeNull();
    expect(answerSkipReason({ ...o, scaleFactor: 10 }, 0)).toMatch(/answer set is for scale factor 1; this schema is SF 10/);
    expect(answerSkipReason({ ...o, refresh: true }, 0)).toMatch(/runs RF1 before the queries/);
    expect(answerSkipReason(o, 2)).toMatch(/applied 2 update set\(s\)/);
  });

  it('one check per query: the SF 1 answer set read from @sledge/sql, a wrong value fails, a failed query fails, a query not run is skipped', () => {
    const a = answerCheck(null);
    a.onRows({ set: 1, query: 6 }, [['123141078.2283']]);
    a.onRows({ set: 1, query: 14 }, [['16.6']]);
    a.onRows({ set: 1, query: 8 }, [['1995', '0.0345'], ['1996', '0.0415']]);
    // Set 2 is not checked (the answer set is for the first pass on the loaded data).
    a.onRows({ set: 2, query: 17 }, [['0']]);
    const v = a.verdict([{ stream: 0, set: 1, query: 2, position: 2, seconds: 1, rows: 0, error: 'boom' }]);
    const by = new Map(v.checks.map((c) => [c.id, c]));
    expect(v.checks).toHaveLength(22);
    expect(by.get('answer-q6')).toMatchObject({ status: 'pass', title: 'Query 6 answer' });
    expect(by.get('answer-q14')).toMatchObject({ status: 'fail', detail: 'row 1: promo_revenue 16.6 rounds to 16.6, more than 1% from 16.38' });
    // Q8's ratio 0.0345 rounds to 0.03, the answer's value: a pass; 0.0415 rounds to 0.04 against 0.04.
    expect(by.get('answer-q8')).toMatchObject({ status: 'pass' });
    expect(by.get('answer-q2')).toMatchObject({ status: 'fail', detail: 'the query failed: boom' });
    expect(by.get('answer-q17')).toMatchObject({ status: 'skip' });
    expect(v.status).toBe('fail');
  });

  it('with a skip reason, one skipped check that gives it', () => {
    const a = answerCheck('no', () => parseAnswerSet('x\n1'));
    a.onRows({ set: 1, query: 1 }, [['2']]);
    expect(a.verdict([]).checks).toEqual([{ id: 'answers', title: 'Query answers against the TPC-H answer set', status: 'skip', detail: 'not checked: no' }]);
  });
});
