import type { Capabilities } from '@sledge/protocol';

/**
 * `sledge capabilities` as text: the row generator, then per engine whether
 * its driver loads (HammerDB's librarycheck lines), how to install it when
 * not, the workloads it offers in part, and which loop runs its virtual
 * users: the native one, or JavaScript with the reason (how to get the
 * native one) and what JavaScript costs, or for an in-process engine
 * (features.mainThreadSessions) that they run on the server's main thread,
 * with its workloads.
 */
export function capabilitiesText(c: Capabilities): string {
  const out = [`Sledge ${c.version} on Node ${c.node}, ${c.cpus} CPUs; row generator: ${c.generator.active}${c.generator.reason ? ` (${c.generator.reason})` : ''}`];
  for (const e of c.engines) {
    out.push(
      `${e.available ? 'Success' : 'Failed '} ... ${e.available ? 'loaded' : 'could not load'} library ${e.library}${e.libraryVersion ? ` ${e.libraryVersion}` : ''} for ${e.displayName}${e.reason ? `: ${e.reason}` : ''}`,
    );
    if (!e.available && e.install) out.push(`          to install: ${e.install}`);
    // An in-process engine (DuckDB): its VUs (scripts) run on the server's main thread, beside its query streams.
    if (e.available && e.features?.mainThreadSessions) {
      out.push(`          virtual users: JavaScript, on the server's main thread (the database runs in the server's process, one instance per file); workloads: ${e.workloads.join(', ')}`);
    }
    // Workloads offered in part (DuckDB: TPROC-C's schema, CH-benCHmark's analytic streams), in their first sentence.
    for (const [w, what] of Object.entries(e.limited ?? {})) out.push(`          ${w}: ${what.split(/(?<=\.) /)[0]}`);
    const l = e.vuLoop;
    if (!l) continue;
    if (l.active === 'native') out.push(`          virtual users: ${l.name ?? 'the native loop'}`);
    else {
      out.push(`          virtual users: JavaScript${l.reason ? ` (${l.reason})` : ''}`);
      if (l.cost) out.push(`          WARNING: ${l.cost}`);
    }
  }
  return out.join('\n') + '\n';
}
