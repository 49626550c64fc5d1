import { Link } from '../router.js';
import { VU_SEQUENCE_FIELD } from '../forms/vu-sequence.js';

/** The Run page's VU sequence (HammerDB's autopilot): the field, in the advanced options. */
export function VuSequenceField({ value, onChange, error }: { value: string; onChange: (v: string) => void; error: string | undefined }) {
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <label htmlFor="run-vu-sequence">VU sequence (optional)</label>
      <input id="run-vu-sequence" data-field={VU_SEQUENCE_FIELD} value={value} placeholder="1 2 4 8" onChange={(e) => onChange(e.target.value)} aria-describedby="run-vu-sequence-help" />
      <p className="help" id="run-vu-sequence-help">
        HammerDB&apos;s autopilot: one run per VU count, one after another, as one performance profile (the id above, or the next free one). The Compare page fits the
        scalability curve over them.
      </p>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** Where a launched sequence is: which run the page shows, of how many, and the profile's Compare link. */
export function VuSequenceStatus({ profileId, jobIds, shown }: { profileId: number; jobIds: readonly string[]; shown: string | undefined }) {
  const at = shown ? jobIds.indexOf(shown) : -1;
  if (at < 0) return null;
  return (
    <p className="notice" role="status" data-testid="vu-sequence-status">
      VU sequence, profile {profileId}: run {at + 1} of {jobIds.length} shown below; the page follows each run as it starts.{' '}
      <Link to={`/compare?profile=${profileId}`}>Compare the profile</Link>
    </p>
  );
}
