/** The client library's quoting (node-postgres escapeIdentifier / escapeLiteral). */
export interface Quoting {
  escapeIdentifier(s: string): string;
  escapeLiteral(s: string): string;
}

/**
 * Fill psql-style variables: `:'name'` becomes a quoted literal, `:"name"` a
 * quoted identifier, and a bare `:name` an integer (only integers are
 * accepted bare). `::type` casts are left alone. A quoted variable that is
 * not supplied is a bug in the caller and throws.
 */
export function renderVars(sql: string, vars: Record<string, string | number>, q: Quoting): string {
  return sql.replace(/(?<!:):(?:'([A-Za-z_]\w*)'|"([A-Za-z_]\w*)"|([A-Za-z_]\w*))/g, (whole, lit?: string, ident?: string, bare?: string) => {
    const name = (lit ?? ident ?? bare)!;
    const v = vars[name];
    if (v === undefined) {
      if (bare !== undefined) return whole;
      throw new Error(`SQL variable :${lit !== undefined ? `'${name}'` : `"${name}"`} has no value`);
    }
    if (lit !== undefined) return q.escapeLiteral(String(v));
    if (ident !== undefined) return q.escapeIdentifier(String(v));
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new Error(`SQL variable :${name} must be an integer`);
    return String(v);
  });
}
