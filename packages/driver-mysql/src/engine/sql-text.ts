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
