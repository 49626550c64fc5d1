import { LATENCY_FNS } from '@sledge/protocol';
import { ApiError } from '../api/http.js';

/** The run form's thresholds and baseline, as typed. */
export interface ThresholdsDraft {
  rows: string[];
  baseline: 'none' | 'job' | 'profile';
  baselineId: string;
  /** Percent, as typed ('2.5'). */
  maxRegressionPct: string;
}

export const EMPTY_THRESHOLDS: ThresholdsDraft = { rows: [], baseline: 'none', baselineId: '', maxRegressionPct: '2.5' };

/** The draft of a stored job's configuration (Edit and run). */
export function draftOf(config: unknown): ThresholdsDraft {
  const c = (config ?? {}) as { thresholds?: unknown; baseline?: { jobId?: string; profileId?: number; maxRegression?: number } };
  const rows = Array.isArray(c.thresholds) ? c.thresholds.filter((t): t is string => typeof t === 'string') : [];
  const b = c.baseline;
  if (!b || (b.jobId === undefined && b.profileId === undefined)) return { ...EMPTY_THRESHOLDS, rows };
  return {
    rows,
    baseline: b.jobId !== undefined ? 'job' : 'profile',
    baselineId: String(b.jobId ?? b.profileId),
    maxRegressionPct: String(Number(((b.maxRegression ?? 0.025) * 100).toPrecision(12))),
  };
}

/**
 * The body fields of a draft: non-empty rows (rowOf maps a sent index back
 * to its row, for the server's thresholds[i] errors) and the baseline.
 */
export function thresholdsBody(d: ThresholdsDraft): { fields: { thresholds?: string[]; baseline?: Record<string, unknown> }; rowOf: number[] } {
  const rowOf: number[] = [];
  const thresholds: string[] = [];
  d.rows.forEach((r, i) => {
    if (!r.trim()) return;
    rowOf.push(i);
    thresholds.push(r.trim());
  });
  const fields: { thresholds?: string[]; baseline?: Record<string, unknown> } = {};
  if (thresholds.length) fields.thresholds = thresholds;
  if (d.baseline !== 'none') {
    const id = d.baselineId.trim();
    const pct = Number(d.maxRegressionPct);
    fields.baseline = {
      ...(d.baseline === 'job' ? { jobId: id } : { profileId: /^\d+$/.test(id) ? Number(id) : id }),
      ...(d.maxRegressionPct.trim() === '' ? {} : { maxRegression: Number.isFinite(pct) ? Number((pct / 100).toPrecision(12)) : d.maxRegressionPct }),
    };
  }
  return { fields, rowOf };
}

/** Form keys of the draft's fields (where the server's field errors go): thresholds[i] per row, thresholds, baseline. */
export const thresholdKeys = (d: ThresholdsDraft): string[] => [...d.rows.map((_, i) => `thresholds[${i}]`), 'thresholds', 'baseline'];

/** A server field error on thresholds[i] (i among the sent rows) renamed to its row in the form. */
export function toRowField(field: string | undefined, rowOf: number[]): string | undefined {
  const m = field ? /^thresholds\[(\d+)\]$/.exec(field) : null;
  return m ? `thresholds[${rowOf[Number(m[1])] ?? Number(m[1])}]` : field;
}

const EXAMPLES = ['nopm>1000', 'p95(neword)<50ms', 'error_rate<1%', 'retries<=10'];

/** A row's `:abort` option (protocol's threshold grammar), with an optional delay. */
const ABORT = /:\s*abort\b(\s*\([^()]*\))?\s*$/i;
export const hasAbort = (row: string): boolean => ABORT.test(row.trim());
/** The row with its `:abort` option on or off (a delay typed with it stays while on). */
export function withAbort(row: string, on: boolean): string {
  if (on === hasAbort(row)) return row;
  const base = row.trim().replace(ABORT, '').trimEnd();
  return on ? `${base}:abort` : base;
}

export interface ThresholdsEditorProps {
  value: ThresholdsDraft;
  onChange: (d: ThresholdsDraft) => void;
  errors: Record<string, string>;
  /** Whether the run has a measured window for `:abort` conditions (true), or why not (the option is shown disabled). */
  abortable?: true | string;
}

/**
 * A simple list editor: one condition per row, add and remove, each with
 * "stop the run when it fails" (the `:abort` option); an optional baseline
 * (job or profile) with its allowed regression.
 */
export function ThresholdsEditor({ value, onChange, errors, abortable = true }: ThresholdsEditorProps) {
  const set = (patch: Partial<ThresholdsDraft>) => onChange({ ...value, ...patch });
  const setRow = (i: number, v: string) => set({ rows: value.rows.map((r, j) => (j === i ? v : r)) });
  return (
    <fieldset className="thresholds-editor" data-testid="thresholds-editor">
      <legend>Thresholds (pass/fail)</legend>
      <p className="help" id="thresholds-help">
        <span className="mono">&lt;metric&gt; &lt;op&gt; &lt;value&gt;[unit]</span>, op one of &lt; &lt;= &gt; &gt;= ==. Metrics: result fields (nopm, tpm, geomean …), errors, retries, error_rate (%), and{' '}
        <span className="mono">{LATENCY_FNS.join('|')}(operation)</span> latency in ms, s or us. A job fails its check when any condition fails or its metric is missing.
        {' '}<em>Stop the run when it fails</em> (<span className="mono">:abort</span>) also judges the condition every 5 s during the measured window and stops the run early;{' '}
        <span className="mono">:abort(30s)</span> starts judging 30 s into the window.
      </p>
      {value.rows.map((r, i) => {
        const key = `thresholds[${i}]`;
        return (
          <div key={i} className={`threshold-row${errors[key] ? ' has-error' : ''}`}>
            <label className="sr-only" htmlFor={`threshold-${i}`}>
              Threshold {i + 1}
            </label>
            <input
              id={`threshold-${i}`}
              className="mono"
              value={r}
              placeholder={EXAMPLES[i % EXAMPLES.length]}
              onChange={(e) => setRow(i, e.target.value)}
              aria-describedby="thresholds-help"
              aria-invalid={errors[key] ? true : undefined}
              data-testid={`threshold-${i}`}
              maxLength={200}
            />
            <label className="inline small abort-option" title={abortable === true ? "Judge this condition during the measured window too, and stop the run as soon as it fails (':abort')" : abortable}>
              <input
                type="checkbox"
                checked={hasAbort(r)}
                disabled={abortable !== true && !hasAbort(r)}
                onChange={(e) => setRow(i, withAbort(r, e.target.checked))}
                data-testid={`threshold-abort-${i}`}
              />
              stop the run when it fails
            </label>
            <button type="button" onClick={() => set({ rows: value.rows.filter((_, j) => j !== i) })} aria-label={`Remove threshold ${i + 1}`} data-testid={`remove-threshold-${i}`}>
              Remove
            </button>
            {errors[key] && (
              <p className="field-error" role="alert">
                {errors[key]}
              </p>
            )}
          </div>
        );
      })}
      {errors['thresholds'] && (
        <p className="field-error" role="alert">
          {errors['thresholds']}
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={() => set({ rows: [...value.rows, ''] })} data-testid="add-threshold">
          Add threshold
        </button>
      </div>
      <div className={`threshold-baseline${errors['baseline'] ? ' has-error' : ''}`}>
        <label htmlFor="baseline-kind">Regression baseline</label>
        <select id="baseline-kind" value={value.baseline} onChange={(e) => set({ baseline: e.target.value as ThresholdsDraft['baseline'] })} data-testid="baseline-kind">
          <option value="none">none</option>
          <option value="job">a job (its headline)</option>
          <option value="profile">a profile (HammerDB jobs diff)</option>
        </select>
        {value.baseline !== 'none' && (
          <>
            <label htmlFor="baseline-id">{value.baseline === 'job' ? 'Job id' : 'Profile id'}</label>
            <input id="baseline-id" className="mono" value={value.baselineId} onChange={(e) => set({ baselineId: e.target.value })} size={value.baseline === 'job' ? 26 : 6} data-testid="baseline-id" />
            <label htmlFor="baseline-max">Max regression (%)</label>
            <input id="baseline-max" inputMode="decimal" value={value.maxRegressionPct} onChange={(e) => set({ maxRegressionPct: e.target.value })} size={5} data-testid="baseline-max" />
          </>
        )}
        {errors['baseline'] && (
          <p className="field-error" role="alert">
            {errors['baseline']}
          </p>
        )}
      </div>
    </fieldset>
  );
}

/** An API error with its thresholds[i] fields renamed to the form's rows (empty rows are not sent). */
export function toRowErrors(e: unknown, rowOf: number[]): unknown {
  if (!(e instanceof ApiError)) return e;
  const errors = e.errors?.map((x) => ({ ...x, field: toRowField(x.field, rowOf) ?? x.field }));
  return new ApiError(e.code, e.message, e.status, toRowField(e.field, rowOf), errors);
}
