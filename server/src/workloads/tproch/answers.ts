import { compareTprochAnswer, parseAnswerSet, type AnswerSet } from '@sledge/core';
import { tprochAnswerText } from '@sledge/sql';
import { validityOf, type TprochQueryTime, type Validity, type ValidityCheck } from '@sledge/protocol';

/**
 * TPROC-H's answer check (docs/tproch.md, "Answer check"): with `validation`
 * at SF 1 on the loaded data, each query of the power stream's first set is
 * compared with the TPC-H answer set as it ends (the rows are not kept), and
 * the run's validity verdict has one check per query. Elsewhere the verdict
 * says why the answers were not checked.
 */

const check = (query: number, status: ValidityCheck['status'], detail: string): ValidityCheck => ({ id: `answer-q${query}`, title: `Query ${query} answer`, status, detail });

/** Why the answers cannot be checked on this run, or null when they can. */
export function answerSkipReason(o: { validation: boolean; scaleFactor: number; refresh: boolean }, appliedUpdates: number): string | null {
  if (o.scaleFactor !== 1) return `the TPC-H answer set is for scale factor 1; this schema is SF ${o.scaleFactor}`;
  if (o.refresh) return 'the power test runs RF1 before the queries, so the data is not the loaded data the answer set is for: run with refresh off';
  if (appliedUpdates > 0) return `earlier refresh runs applied ${appliedUpdates} update set(s) to this schema, so its data is not the loaded data the answer set is for: rebuild it`;
  return null;
}

export interface AnswerCheck {
  /** The stream plan's row callback (power stream). */
  onRows(q: { set: number; query: number }, rows: unknown[][]): void;
  /** The verdict once the power stream ended: a failed query fails its check, a query that did not run is skipped. */
  verdict(queries: readonly TprochQueryTime[]): Validity;
}

/** Answer checks of one power stream; `skip` (answerSkipReason) makes every query's check a skip with that reason. */
export function answerCheck(skip: string | null, answer: (q: number) => AnswerSet = (q) => parseAnswerSet(tprochAnswerText(q))): AnswerCheck {
  const byQuery = new Map<number, ValidityCheck>();
  return {
    onRows({ set, query }, rows) {
      if (skip !== null || set !== 1) return;
      try {
        const v = compareTprochAnswer(query, answer(query), rows);
        byQuery.set(query, check(query, v.status, v.detail));
      } catch (e) {
        // Not the query's failure: the answer set could not be read.
        byQuery.set(query, check(query, 'skip', `the answer set could not be read: ${e instanceof Error ? e.message : String(e)}`));
      }
    },
    verdict(queries) {
      if (skip !== null) return validityOf([{ id: 'answers', title: 'Query answers against the TPC-H answer set', status: 'skip', detail: `not checked: ${skip}` }]);
      const checks: ValidityCheck[] = [];
      for (let q = 1; q <= 22; q++) {
        const failed = queries.find((x) => x.stream === 0 && x.set === 1 && x.query === q && x.error !== undefined);
        checks.push(byQuery.get(q) ?? (failed ? check(q, 'fail', `the query failed: ${failed.error}`) : check(q, 'skip', 'the query did not run')));
      }
      return validityOf(checks);
    },
  };
}
