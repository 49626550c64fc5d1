/**
 * Whose tables a target already holds: the tables found, named by the
 * workload they belong to (WorkloadDef.tables). Two workloads may share
 * names (TPROC-C and TPROC-H both have customer and orders): a workload is
 * named when a table only it has is there, so a TPROC-C schema found while
 * building TPROC-H is called TPROC-C's. Pure: ./index.ts passes the
 * registered workloads.
 */

/** A workload as this module needs it (a WorkloadDef). */
export interface TableOwner {
  id: string;
  display: string;
  tables?: readonly string[];
}

/** The tables found, grouped by the workload they identify. */
export interface HeldTables {
  /** Workloads whose own tables (names no other workload has) are there, with every table of theirs found. */
  owners: { id: string; display: string; tables: string[] }[];
  /** Tables found that name no workload on their own (shared names only, or no workload's). */
  other: string[];
}

export function heldTables(found: readonly string[], workloads: readonly TableOwner[]): HeldTables {
  const names = new Set(found.map((t) => t.toLowerCase()));
  const count = new Map<string, number>();
  for (const w of workloads) for (const t of new Set(w.tables ?? [])) count.set(t, (count.get(t) ?? 0) + 1);
  const owners: HeldTables['owners'] = [];
  const claimed = new Set<string>();
  for (const w of workloads) {
    const mine = (w.tables ?? []).filter((t) => names.has(t));
    if (!mine.some((t) => count.get(t) === 1)) continue;
    owners.push({ id: w.id, display: w.display, tables: mine });
    for (const t of mine) claimed.add(t);
  }
  const other = [...names].filter((t) => !claimed.has(t));
  return { owners, other };
}

/**
 * The refusal's wording for building `building` into a place that holds
 * `found` tables: whose tables they are and what to do. `where` names the
 * place ("/data/tprocc.sqlite", 'database "tpcc"'); `field` is the field
 * to change; `otherDefault`, when the workload has its own default there,
 * is offered.
 */
export function schemaExistsText(
  where: string,
  building: TableOwner,
  held: HeldTables,
  fix: { field: string; otherDefault?: string | undefined },
): string {
  const list = (ts: readonly string[]) => ts.join(', ');
  const own = held.owners.find((o) => o.id === building.id);
  const others = held.owners.filter((o) => o.id !== building.id);
  const b = building.display;
  if (own && !others.length) {
    return `${where} already holds ${b} tables (${list(own.tables)}): delete the ${b} schema first or choose another ${fix.field}${fix.otherDefault ? ` (${b}'s default is ${fix.otherDefault})` : ''}.`;
  }
  if (others.length) {
    const names = others.map((o) => `${o.display} tables (${list(o.tables)})`).join(' and ');
    const whose = others.map((o) => o.display).join(' and ');
    return `${where} already holds ${names}, not ${b}: choose another ${fix.field} for ${b}${fix.otherDefault ? ` (its default is ${fix.otherDefault})` : ''} or delete the ${whose} schema first.`;
  }
  return `${where} already holds tables named like ${b}'s (${list(held.other)}): choose another ${fix.field}${fix.otherDefault ? ` (${b}'s default is ${fix.otherDefault})` : ''} or drop those tables first.`;
}
