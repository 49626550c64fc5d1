import { useEffect, useRef, useState } from 'react';
import { BUILTIN_SCRIPTS, MAX_SCRIPTS, type BuiltinScript, type EngineId } from '@sledge/protocol';
import { api } from '../../api/endpoints.js';
import {
  addDraft,
  checkRequest,
  draftText,
  draftsOf,
  draftsValue,
  editDraft,
  errorsByDraft,
  pickBuiltin,
  removeDraft,
  weightShares,
  type DraftError,
  type ScriptDraft,
} from './form.js';

/** How long typing pauses before the scripts are checked. */
const CHECK_DELAY_MS = 250;
/** The editor grows with its script up to this many lines, then scrolls. */
const MAX_ROWS = 28;

let builtinsOnce: Promise<Record<string, string>> | undefined;
/** pgbench's built-in scripts' text, fetched once per page load. */
function loadBuiltins(): Promise<Record<string, string>> {
  builtinsOnce ??= api.scriptBuiltins().then(
    (list) => Object.fromEntries(list.map((b) => [b.name, b.text])),
    (e: unknown) => {
      builtinsOnce = undefined;
      throw e;
    },
  );
  return builtinsOnce;
}

type CheckState = { state: 'idle' } | { state: 'checking' } | { state: 'done'; errors: Record<number, DraftError>; commands: Record<number, number> } | { state: 'failed'; message: string };

/** Checks the drafts on the server (POST /scripts/validate) as the user types; the answer of the latest request wins. */
function useScriptCheck(drafts: readonly ScriptDraft[], engine: EngineId): CheckState {
  const [check, setCheck] = useState<CheckState>({ state: 'idle' });
  const seq = useRef(0);
  const req = checkRequest(drafts);
  const key = JSON.stringify([req.scripts, engine]);
  useEffect(() => {
    const mine = ++seq.current;
    if (!req.scripts.length) {
      setCheck({ state: 'done', errors: {}, commands: {} });
      return;
    }
    setCheck((c) => (c.state === 'done' ? c : { state: 'checking' }));
    const t = setTimeout(() => {
      api.checkScripts({ scripts: req.scripts, engine }).then(
        (res) => {
          if (mine !== seq.current) return;
          const commands: Record<number, number> = {};
          res.scripts.forEach((s, k) => {
            const i = req.sent[k];
            if (i !== undefined && !s.error) commands[i] = s.commands;
          });
          setCheck({ state: 'done', errors: errorsByDraft(res, req.sent), commands });
        },
        (e: unknown) => {
          if (mine === seq.current) setCheck({ state: 'failed', message: e instanceof Error ? e.message : String(e) });
        },
      );
    }, CHECK_DELAY_MS);
    return () => clearTimeout(t);
    // The request's content is the key: a new drafts array with the same scripts is not checked again.
  }, [key]);
  return check;
}

/** A script's text with a line-number gutter; the line at fault is marked in the gutter. */
function CodeArea({ id, value, onChange, errorLine, describedBy, readOnlyHint }: { id: string; value: string; onChange: (v: string) => void; errorLine: number | undefined; describedBy: string | undefined; readOnlyHint?: string }) {
  const gutter = useRef<HTMLPreElement>(null);
  const lines = Math.max(1, value.split('\n').length);
  const rows = Math.min(MAX_ROWS, Math.max(4, lines + 1));
  return (
    <div className="script-code">
      <pre className="script-gutter" ref={gutter} aria-hidden="true">
        {Array.from({ length: Math.max(lines, rows) }, (_, k) => (
          <span key={k} className={errorLine === k + 1 ? 'script-gutter-bad' : undefined} data-error-line={errorLine === k + 1 ? 'true' : undefined}>
            {k < lines ? k + 1 : '\u00a0'}
          </span>
        ))}
      </pre>
      <textarea
        id={id}
        className="script-text mono"
        value={value}
        rows={rows}
        wrap="off"
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        title={readOnlyHint}
        aria-invalid={errorLine !== undefined ? true : undefined}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value)}
        onScroll={(e) => {
          if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
        }}
      />
    </div>
  );
}

export interface ScriptEditorProps {
  engine: EngineId;
  /** The drafts' form value (JSON text). */
  value: unknown;
  onChange: (value: string) => void;
  /** Errors of a job's creation at `script.scripts[i]` (i = slot) and at `script.scripts`. */
  slotError: (i: number) => string | undefined;
  listError: string | undefined;
}

/**
 * The Run page's scripts: per script a name, a weight (and its share) and
 * its text in pgbench's script language, started empty or from one of
 * pgbench's built-ins; each script is checked on the server as it is typed,
 * and a mistake is shown under it with its line and column (and marked in
 * the gutter).
 */
export function ScriptEditor({ engine, value, onChange, slotError, listError }: ScriptEditorProps) {
  const drafts = draftsOf(value);
  const [builtins, setBuiltins] = useState<Record<string, string>>({});
  const [builtinsError, setBuiltinsError] = useState<string>();
  useEffect(() => {
    let live = true;
    loadBuiltins().then(
      (b) => live && setBuiltins(b),
      (e: unknown) => live && setBuiltinsError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, []);
  const check = useScriptCheck(drafts, engine);
  const shares = weightShares(drafts);
  const set = (next: ScriptDraft[]) => onChange(draftsValue(next));
  return (
    <fieldset className="mix scripts" data-testid="script-editor">
      <legend>Scripts</legend>
      <p className="help">
        pgbench scripts (<span className="mono">\set</span>, <span className="mono">\sleep</span>, <span className="mono">\if</span>, <span className="mono">\gset</span>,{' '}
        <span className="mono">:var</span> as bound parameters). Each VU draws one script per transaction by weight; each script has its own counters, latency and errors. Start
        from a pgbench built-in or write your own: mistakes show under the script as you type.
      </p>
      {builtinsError && <p className="field-error">pgbench's built-in scripts could not be loaded: {builtinsError}</p>}
      {drafts.map((d, i) => {
        const base = `script-${i}`;
        const own = check.state === 'done' ? check.errors[i] : undefined;
        const server = slotError(i);
        const text = draftText(d, builtins);
        const commands = check.state === 'done' ? check.commands[i] : undefined;
        return (
          <div className={`script-card${own || server ? ' script-card-bad' : ''}`} key={i} data-testid={base} data-script-name={d.name}>
            <div className="script-head">
              <div className="field">
                <label htmlFor={`${base}-name`}>Name</label>
                <input id={`${base}-name`} value={d.name} maxLength={64} placeholder={`script${i + 1}`} onChange={(e) => set(editDraft(drafts, i, { name: e.target.value }))} data-testid={`${base}-name`} />
              </div>
              <div className="field script-weight">
                <label htmlFor={`${base}-weight`}>Weight</label>
                <input id={`${base}-weight`} inputMode="numeric" value={d.weight} onChange={(e) => set(editDraft(drafts, i, { weight: e.target.value }))} data-testid={`${base}-weight`} />
              </div>
              <p className="muted small script-share" data-testid={`${base}-share`}>
                {shares?.[i] !== undefined ? `${shares[i].toFixed(1)}% of transactions` : ''}
              </p>
              <div className="field">
                <label htmlFor={`${base}-builtin`}>Start from</label>
                <select
                  id={`${base}-builtin`}
                  value=""
                  onChange={(e) => {
                    if (e.target.value) set(pickBuiltin(drafts, i, e.target.value as BuiltinScript));
                  }}
                  data-testid={`${base}-builtin`}
                >
                  <option value="">pgbench built-in…</option>
                  {BUILTIN_SCRIPTS.map((b) => (
                    <option key={b} value={b}>
                      {b}
                    </option>
                  ))}
                </select>
              </div>
              <button type="button" className="small" disabled={drafts.length <= 1} onClick={() => set(removeDraft(drafts, i))} data-testid={`${base}-remove`} title={drafts.length <= 1 ? 'A run needs one script' : `Remove ${d.name || `script ${i + 1}`}`}>
                Remove
              </button>
            </div>
            <label htmlFor={`${base}-text`} className="sr-only">
              Script {d.name || i + 1}
            </label>
            <CodeArea
              id={`${base}-text`}
              value={text}
              onChange={(v) => set(editDraft(drafts, i, { text: v }))}
              errorLine={own?.line}
              describedBy={own || server ? `${base}-error` : undefined}
            />
            {own ? (
              <p className="field-error" id={`${base}-error`} role="alert" data-testid={`${base}-error`} data-line={own.line} data-column={own.column}>
                Line {own.line}
                {own.column !== undefined ? `, column ${own.column}` : ''}: {own.message}
              </p>
            ) : server ? (
              <p className="field-error" id={`${base}-error`} role="alert" data-testid={`${base}-error`}>
                {server}
              </p>
            ) : (
              <p className="muted small" data-testid={`${base}-status`}>
                {d.builtin && d.text === '' ? `pgbench's built-in ${d.builtin}, as pgbench defines it` : check.state === 'checking' ? 'Checking…' : commands !== undefined ? `No syntax errors (${commands} command${commands === 1 ? '' : 's'})` : ''}
              </p>
            )}
          </div>
        );
      })}
      {check.state === 'failed' && <p className="field-error">The scripts could not be checked: {check.message}</p>}
      {listError && (
        <p className="field-error" role="alert" data-testid="scripts-error">
          {listError}
        </p>
      )}
      <button type="button" onClick={() => set(addDraft(drafts))} disabled={drafts.length >= MAX_SCRIPTS} data-testid="script-add">
        Add script
      </button>
    </fieldset>
  );
}
