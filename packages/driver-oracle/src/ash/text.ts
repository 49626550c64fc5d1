/** Longest statement text kept with a sample. */
export const SQL_TEXT_MAX = 300;

/** The text kept with a sample: whitespace collapsed, at most SQL_TEXT_MAX characters (… marks a cut). */
export function truncateSql(text: string, max = SQL_TEXT_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** The VU position of a Sledge session name `sledge-vu-<n>`, else undefined. */
export function vuFromName(name: string | null | undefined): number | undefined {
  const m = name ? /^sledge-vu-(\d+)$/.exec(name.trim()) : null;
  return m ? Number(m[1]) : undefined;
}
