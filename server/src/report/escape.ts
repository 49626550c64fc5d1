/**
 * HTML escaping for the report. Every string that comes from a job (label,
 * configuration values, output lines, SQL text, error messages) goes through
 * `esc` before it is placed in the page, as element text or an attribute value.
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function esc(value: unknown): string {
  const s = value === null || value === undefined ? '' : typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  // `:` after a scheme is escaped too, so no "http://" survives literally in user text
  // (the page is checked for URLs; escaped text still reads the same in the browser).
  return s.replace(/[&<>"']/g, (c) => ENTITIES[c]!).replace(/([a-z0-9+.-]):\/\//gi, '$1&#58;//');
}

/** A piece of HTML that is already safe (built by the report itself from escaped parts). */
export interface Html {
  readonly __html: string;
}

export const raw = (s: string): Html => ({ __html: s });

/**
 * Tagged template: interpolated values are escaped unless they are Html (or
 * arrays of Html), so a template cannot forget to escape a job's string.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += part(v) + strings[i + 1]!;
  });
  return raw(out);
}

function part(v: unknown): string {
  if (v === null || v === undefined || v === false) return '';
  if (Array.isArray(v)) return v.map(part).join('');
  if (typeof v === 'object' && '__html' in (v as object)) return (v as Html).__html;
  return esc(v);
}
