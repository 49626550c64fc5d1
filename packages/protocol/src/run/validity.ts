import Type from 'typebox';
import { StringEnum } from '../util.js';

/** A validity check's outcome: pass, warn (the run is usable but something looks off), fail (the run is not valid), skip (the check does not apply, or its input was not measured). */
export const VALIDITY_STATUSES = ['pass', 'warn', 'fail', 'skip'] as const;
export type ValidityStatus = (typeof VALIDITY_STATUSES)[number];

/** One validity check of a run: what it checked, its outcome, and why (the measured value and the expected band). */
export const ValidityCheck = Type.Object(
  {
    id: Type.String({ description: 'stable check id, e.g. "neworder-rollbacks"' }),
    title: Type.String(),
    status: StringEnum(VALIDITY_STATUSES),
    detail: Type.String({ description: 'why: the measured value and the expected band, or why the check was skipped' }),
  },
  { $id: 'ValidityCheck' },
);
export type ValidityCheck = Type.Static<typeof ValidityCheck>;

/** A run's validity verdict, computed when its measured window ends (result field `validity`). */
export const Validity = Type.Object(
  {
    status: Type.Union([Type.Literal('pass'), Type.Literal('warn'), Type.Literal('fail')], { description: 'the worst status of the checks (skipped checks do not count)' }),
    checks: Type.Array(ValidityCheck),
  },
  { $id: 'Validity' },
);
export type Validity = Type.Static<typeof Validity>;

/** The overall status of a list of checks: fail if any failed, else warn if any warned, else pass. */
export function validityOf(checks: ValidityCheck[]): Validity {
  const status = checks.some((c) => c.status === 'fail') ? 'fail' : checks.some((c) => c.status === 'warn') ? 'warn' : 'pass';
  return { status, checks };
}

/** A result's validity verdict, if it has one (old stored jobs have none). */
export function validityOfResult(result: unknown): Validity | undefined {
  if (!result || typeof result !== 'object') return undefined;
  const v = (result as { validity?: unknown }).validity;
  if (!v || typeof v !== 'object' || !Array.isArray((v as Validity).checks)) return undefined;
  return v as Validity;
}
