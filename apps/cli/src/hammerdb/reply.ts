/**
 * HammerDB command API replies: {"success":{"message"}} or {"error":{"message"}}
 * (every leaf a string), or a print page's object.
 */
export type Reply = { success?: { message?: string }; error?: { message?: string } } & Record<string, unknown>;

export const isError = (r: Reply): boolean => typeof r.error === 'object' && r.error !== null;

/** The message of an envelope (success or error), or undefined for a page without one. */
export function messageOf(r: Reply): string | undefined {
  return r.error?.message ?? r.success?.message;
}

/** The job a work verb started: "...: JOBID=<24 hex>". */
export function jobIdOf(message: string | undefined): string | undefined {
  return /JOBID=([0-9A-F]+)/.exec(message ?? '')?.[1];
}

/** The message without its ": JOBID=..." tail (HammerDB's CLI prints the jobid only as the return value). */
export const withoutJobId = (message: string): string => message.replace(/:\s*JOBID=[0-9A-F]+\s*$/, '');
