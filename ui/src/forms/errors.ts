import { isEngineId, parseTarget, secretFields, SledgeError, type ErrorCode, type FieldError } from '@sledge/protocol';
import { ApiError } from '../api/http.js';
import { fieldKeyFor, type FieldSpec } from './fields.js';
import { DEFAULT_WORKLOAD, workloadUi, type WorkloadForm } from '../workloads/registry.js';
import { nestedOptions } from '../workloads/body.js';

/**
 * Field errors placed at their form fields, every one at once, worded with the
 * fields' labels ("Virtual users must be >= 1") instead of the API's dotted
 * paths ("tprocc.vus must be >= 1"). Pure: no React.
 */

/** Form key -> the label its field shows (the schema's title). */
export type FieldLabels = Readonly<Record<string, string>>;

export interface PlacedErrors {
  /** Error text per form key (one per field; the first the API listed wins). */
  fields: Record<string, string>;
  /** What no listed field owns, or undefined when every error found its field. */
  general: ApiError | undefined;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Replace every dotted path of `labels` that appears in `message` with its
 * label, longest path first (`tprocc.mix.payment` before `tprocc.mix`). A
 * path is only replaced whole: `tprocc.vus` does not match inside
 * `tprocc.vusX` or `tprocc.vus.x`.
 */
export function labelMessage(message: string, labels: FieldLabels): string {
  const keys = Object.keys(labels).sort((a, b) => b.length - a.length);
  let out = message;
  for (const k of keys) {
    const label = labels[k];
    if (!label) continue;
    out = out.replace(new RegExp(`(?<![\\w.])${escapeRe(k)}(?![\\w]|\\.\\w)`, 'g'), label);
  }
  return out;
}

/** The field errors an error carries: its list when the API sent several, else its one field. */
export function fieldErrorsOf(err: ApiError): FieldError[] {
  if (err.errors?.length) return [...err.errors];
  if (err.field) return [{ field: err.field, message: err.message }];
  return [];
}

/**
 * Route every field error of `e` to its form key (one of `keys`, or the
 * closest listed ancestor of a deeper path); what no key owns goes to
 * `general`, with its messages joined.
 */
export function placeErrors(e: unknown, keys: readonly string[], labels: FieldLabels = {}): PlacedErrors {
  const err = e instanceof ApiError ? e : new ApiError('SLEDGE_E_INTERNAL', e instanceof Error ? e.message : String(e), 0);
  const list = fieldErrorsOf(err);
  if (!list.length) return { fields: {}, general: err };
  const fields: Record<string, string> = {};
  const rest: FieldError[] = [];
  for (const fe of list) {
    const key = fieldKeyFor(fe.field, keys);
    if (key === null) rest.push(fe);
    else if (!(key in fields)) fields[key] = labelMessage(fe.message, labels);
  }
  if (!rest.length) return { fields, general: undefined };
  const message = rest.map((fe) => labelMessage(fe.message, labels)).join('; ');
  const general = new ApiError(err.code, message, err.status, rest[0]!.field, rest.length > 1 ? rest : undefined);
  return { fields, general };
}

const toApiError = (e: SledgeError) => new ApiError(e.code, e.message, e.httpStatus, e.field, e.errors ? [...e.errors] : undefined);

/**
 * Check a job body's `target` and its workload's options (`tprocc`) exactly
 * as the server will (protocol's parseTarget and the workload form's `parse`,
 * TPROC-C: parseTproccOptions, on the same objects), so that
 * every out-of-range value is reported at its field before any request.
 * Returns the error the server would answer, or null when the body passes.
 * Secret fields are left to the server: a saved configuration supplies them
 * there.
 */
export function precheckJob(body: { target: unknown; [options: string]: unknown }, form: Pick<WorkloadForm, 'key' | 'parse' | 'parts'> = workloadUi(DEFAULT_WORKLOAD).form): ApiError | null {
  const list: FieldError[] = [];
  let code: ErrorCode | undefined;
  const step = (run: () => unknown, skip: (field: string) => boolean = () => false) => {
    try {
      run();
    } catch (e) {
      if (!(e instanceof SledgeError)) throw e;
      const errors = (e.errors ?? [{ field: e.field ?? 'body', message: e.message }]).filter((fe) => !skip(fe.field));
      if (errors.length) code ??= e.code;
      list.push(...errors);
    }
  };
  const engine = (body.target as { engine?: unknown } | null)?.engine;
  const secrets = new Set(isEngineId(engine) ? secretFields(engine).map((f) => `target.${f}`) : []);
  step(() => parseTarget(body.target), (field) => secrets.has(field));
  const options = nestedOptions(form, body);
  if (options !== undefined) step(() => form.parse(options, form.key, isEngineId(engine) ? engine : undefined));
  return list.length ? toApiError(SledgeError.ofFields(code ?? 'SLEDGE_E_VALIDATION', list)) : null;
}

/** Labels for form keys `<prefix>.<name>` from field specs (their schema titles). */
export function labelsOf(prefix: string, fields: readonly FieldSpec[]): Record<string, string> {
  return Object.fromEntries(fields.map((f) => [`${prefix}.${f.name}`, f.title]));
}
