/**
 * A failed build drops what it created (the database, a role that did not
 * exist before), so the target is as it was and the next build can start.
 * Shared by every workload's build; engines that cannot tell what they
 * created have no discardCreated and keep what is there. A failure to clean
 * up is reported, not raised over the build's own error.
 */
export async function discardCreated(admin: { discardCreated?(): Promise<string[]> }, mon: (text: string) => void): Promise<void> {
  if (!admin.discardCreated) return;
  try {
    const dropped = await admin.discardCreated();
    if (dropped.length) mon(`Build failed: dropped what it created (${dropped.join(', ')})`);
  } catch (e) {
    mon(`Build failed, and dropping what it created failed too: ${e instanceof Error ? e.message : String(e)}; delete the schema before building again`);
  }
}
