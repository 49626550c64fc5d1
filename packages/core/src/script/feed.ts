import { SledgeError } from '@sledge/protocol';
import type { Script, SqlStatement } from './parse.js';
import { renderStatement } from './parse.js';

/**
 * Evaluating a script ahead of running it (docs/script-workload.md, "The
 * native loop"): a script that never reads the database into a variable
 * (`\set`, `\if` and SQL only) evaluates to the same statements and
 * parameters whatever the database answers, so a VU's transactions can be
 * computed before they are sent, by ScriptClient.runAhead, into a sink (the
 * native loop's feed). Everything else runs in JavaScript.
 */

/** Where runAhead puts one transaction's steps. */
export interface ScriptFeedSink {
  /** One SQL statement: its index in ScriptFeedPlan.statements and its parameters as the engine gets them in text (null: NULL). */
  sql(index: number, params: readonly (string | null)[]): void;
  /** BEGIN, COMMIT (or END) and ROLLBACK. */
  control(kind: 'begin' | 'commit' | 'rollback'): void;
}

/** Why `s` cannot be evaluated ahead (the first command that reads the database or waits), or undefined when it can. */
export function notFeedable(s: Script): string | undefined {
  for (const c of s.commands) {
    if (c.k === 'sql' && c.store) return `${s.name}:${c.line}: \\${c.store.mode} reads the database into variables`;
    if (c.k === 'sleep') return `${s.name}:${c.line}: \\sleep`;
    if (c.k === 'pipeline') return `${s.name}:${c.line}: a pipeline`;
  }
  return undefined;
}

/** The SQL statements of a job's scripts, numbered, in the engine's placeholders: what a feed's statement index names. */
export class ScriptFeedPlan {
  readonly statements: string[] = [];
  private readonly index = new Map<SqlStatement, number>();

  /** The same text in two places (or scripts) is one statement, as the parameter session names one prepared statement per text. */
  constructor(scripts: readonly Script[], placeholder: (n: number) => string) {
    const byText = new Map<string, number>();
    for (const s of scripts) {
      for (const c of s.commands) {
        if (c.k !== 'sql') continue;
        for (const st of c.statements) {
          if (st.kind !== 'sql' || this.index.has(st)) continue;
          const text = renderStatement(st, placeholder);
          let i = byText.get(text);
          if (i === undefined) {
            i = this.statements.length;
            byText.set(text, i);
            this.statements.push(text);
          }
          this.index.set(st, i);
        }
      }
    }
  }

  indexOf(st: SqlStatement): number {
    const i = this.index.get(st);
    if (i === undefined) throw new SledgeError('SLEDGE_E_INTERNAL', 'a script statement that is not in the feed plan (the plan was made from other scripts)');
    return i;
  }
}
