/**
 * Whose tables a target already holds: the tables found, named by the
 * workload they belong to (WorkloadDef.tables). Workloads share names
 * (TPROC-C and TPROC-H both have customer and orders; CH-benCHmark has all
 * of TPROC-C's): a workload whose whole table set is there is named (the
 * larger, when one set holds another), so a TPROC-C schema found while
 * building TPROC-H is called TPROC-C's; tables left over (a build that
 * stopped) name a workload by a table only it has. Pure: ./index.ts passes
 * the registered workloads.
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
  const owners = completeOwners(names, workloads);
  const claimed = new Set(owners.flatMap((o) => o.tables));
  const rest = new Set([...names].filter((t) => !claimed.has(t)));
  const partial = ownersByOwnNames(rest, workloads).filter((p) => !owners.some((o) => o.id === p.id));
  owners.push(...partial);
  for (const o of partial) for (const t of o.tables) claimed.add(t);
  const other = [...names].filter((t) => !claimed.has(t));
  return { owners, other };
}

const tableSet = (w: TableOwner): readonly string[] => w.tables ?? [];
/** Every table of `a` is one of `b`'s, and `b` has more: `b` extends `a` (CH-benCHmark's twelve tables hold TPROC-C's nine). */
const extendsSet = (b: TableOwner, a: TableOwner): boolean => a !== b && tableSet(b).length > tableSet(a).length && tableSet(a).every((t) => tableSet(b).includes(t));

/** Workloads whose every table is there, leaving out one whose set another complete workload extends. */
function completeOwners(names: ReadonlySet<string>, workloads: readonly TableOwner[]): HeldTables['owners'] {
  const complete = workloads.filter((w) => tableSet(w).length > 0 && tableSet(w).every((t) => names.has(t)));
  return complete.filter((w) => !complete.some((o) => extendsSet(o, w))).map((w) => ({ id: w.id, display: w.display, tables: [...tableSet(w)] }));
}

/**
 * Tables no complete schema explains (a build that stopped half way): a
 * workload is named when a table only it has is there, counting only
 * workloads no other one's set lies inside (an extension like CH-benCHmark
 * is named only when it is whole).
 */
function ownersByOwnNames(names: ReadonlySet<string>, workloads: readonly TableOwner[]): HeldTables['owners'] {
  const bases = workloads.filter((w) => !workloads.some((o) => extendsSet(w, o)));
  const count = new Map<string, number>();
  for (const w of bases) for (const t of new Set(tableSet(w))) count.set(t, (count.get(t) ?? 0) + 1);
  const owners: HeldTables['owners'] = [];
  for (const w of bases) {
    const mine = tableSet(w).filter((t) => names.has(t));
    if (mine.some((t) => count.get(t) === 1)) owners.push({ id: w.id, display: w.display, tables: mine });
  }
  return owners;
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
