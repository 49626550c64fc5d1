import type { WorkloadForm } from './types.js';

/**
 * A workload's options in a job body: most workloads send one object under
 * their form's `key`; one with `parts` (CH-benCHmark) sends more, each under
 * its own name (`tprocc` and `chbench`). Pure.
 */

type Obj = Record<string, unknown>;
type PartsOf = Pick<WorkloadForm, 'key' | 'parts'>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The part a field name belongs to (`chbench.dop` → `chbench`), undefined for the form's main object. */
const partOf = (form: PartsOf, name: string): string | undefined => form.parts?.find((p) => name.startsWith(`${p}.`));

/** A field's form key and error path: `tprocc.vus`, or a part's field as named (`chbench.dop`). */
export function optionKey(form: PartsOf, name: string): string {
  return partOf(form, name) ? name : `${form.key}.${name}`;
}

/** The body's options objects from what the form collected (parts nested by name): `{ [key]: main, [part]: part's }`. */
export function bodyOptions(form: PartsOf, options: Obj): Obj {
  if (!form.parts?.length) return { [form.key]: options };
  const main: Obj = { ...options };
  const out: Obj = {};
  for (const p of form.parts) {
    if (isObj(main[p])) out[p] = main[p];
    delete main[p];
  }
  return { [form.key]: main, ...out };
}

/** The form's nested options object from a body or a stored job config (the inverse of bodyOptions); undefined when it has none. */
export function nestedOptions(form: PartsOf, source: Obj): unknown {
  const main = source[form.key];
  if (!form.parts?.length) return main;
  const parts = form.parts.filter((p) => isObj(source[p]));
  if (main === undefined && !parts.length) return undefined;
  return { ...(isObj(main) ? main : {}), ...Object.fromEntries(parts.map((p) => [p, source[p]])) };
}
