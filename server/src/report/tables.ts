import { html, type Html } from './escape.js';

/** A table cell: text (escaped), or numeric text aligned right. */
export type Cell = string | number | Html | { n: string };

const cell = (c: Cell, tag: 'td' | 'th'): Html => {
  if (typeof c === 'object' && c !== null && 'n' in c) return tag === 'td' ? html`<td class="n">${c.n}</td>` : html`<th class="n">${c.n}</th>`;
  return tag === 'td' ? html`<td>${c}</td>` : html`<th>${c}</th>`;
};

/** A table with a header row; header cells written {n:'...'} are right-aligned like their numbers. */
export function table(header: readonly Cell[], rows: readonly (readonly Cell[])[], cls = ''): Html {
  return html`<table${cls ? html` class="${cls}"` : ''}><thead><tr>${header.map((h) => cell(h, 'th'))}</tr></thead><tbody>${rows.map((r) => html`<tr>${r.map((c) => cell(c, 'td'))}</tr>`)}</tbody></table>`;
}

/** Key/value rows without a header. */
export function kvTable(rows: readonly (readonly [string, Cell])[]): Html {
  return html`<table class="kv"><tbody>${rows.map(([k, v]) => html`<tr>${cell(k, 'td')}${cell(v, 'td')}</tr>`)}</tbody></table>`;
}

/** A right-aligned number cell. */
export const num = (s: string): { n: string } => ({ n: s });

/**
 * A configuration as dotted paths and values (`target.host`, `tprocc.vus`),
 * arrays of scalars on one line; the config is already redacted.
 */
export function flatten(value: unknown, prefix = ''): [string, string][] {
  if (value === null || value === undefined) return prefix ? [[prefix, String(value)]] : [];
  if (Array.isArray(value)) {
    if (value.every((x) => x === null || typeof x !== 'object')) return [[prefix, value.map(String).join(', ')]];
    return value.flatMap((x, i) => flatten(x, `${prefix}[${i}]`));
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (!entries.length) return prefix ? [[prefix, '{}']] : [];
    return entries.flatMap(([k, v]) => flatten(v, prefix ? `${prefix}.${k}` : k));
  }
  return [[prefix, String(value)]];
}
