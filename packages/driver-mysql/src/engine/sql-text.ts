/** Backquote an identifier (names are validated by the protocol schema; quote anyway). */
export function quoteIdent(name: string): string {
  return '`' + name.replace(/`/g, '``') + '`';
}

/** Drop full-line `--` comments (named statements may carry them), so the text is what the server gets. */
export function dropCommentLines(sql: string): string {
  return sql
    .split('\n')
    .filter((l) => !l.trim().startsWith('--'))
    .join('\n')
    .trim();
}

/** Replace {{name}} placeholders; a placeholder without a value is an error. */
export function fillPlaceholders(text: string, values: Readonly<Record<string, string | number>>): string {
  return text.replace(/\{\{([a-z_]+)\}\}/g, (_m, name: string) => {
    const v = values[name];
    if (v === undefined) throw new Error(`no value for SQL placeholder {{${name}}}`);
    return String(v);
  });
}
