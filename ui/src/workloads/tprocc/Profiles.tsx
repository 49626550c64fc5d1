import { useMemo } from 'react';
import { ENGINE_DISPLAY } from '@sledge/protocol';
import { api } from '../../api/endpoints.js';
import { EChart } from '../../charts/EChart.js';
import { profileOption } from '../../charts/options/compare.js';
import { paletteFor } from '../../charts/options/palette.js';
import { ErrorBox } from '../../components/ErrorBox.js';
import { setSearch } from '../../router.js';
import { useResource } from '../../state/resource.js';
import { useTheme } from '../../theme.js';
import { fmtInt } from '../../util/format.js';
import { ProfileScalabilityView } from './Scalability.js';

/** HammerDB's performance profiles: runs sharing a profile id, NOPM and TPM against active VUs. */
export function TproccProfiles({ selected }: { selected: number | undefined }) {
  const palette = paletteFor(useTheme());
  const list = useResource('profiles', api.profiles);
  const detail = useResource(selected ? `profile:${selected}` : null, () => api.profile(selected!));
  const points = detail.data?.jobs ?? [];
  const engine = points[0]?.engine;
  const label = `${engine && engine in ENGINE_DISPLAY ? ENGINE_DISPLAY[engine as keyof typeof ENGINE_DISPLAY] : ''} TPM`.trim();
  const option = useMemo(() => profileOption(points, label, palette), [points, label, palette]);
  return (
    <section className="card" aria-labelledby="profiles-h">
      <h3 id="profiles-h">Performance profiles</h3>
      <p className="muted small">Run jobs started with the same profile id form a VU sweep: NOPM and TPM against active virtual users (HammerDB's performance profile).</p>
      {list.error && <ErrorBox error={list.error} />}
      {list.data && !list.data.length && <p className="muted">No profiles yet: give runs a profile id on the Run page.</p>}
      {!!list.data?.length && (
        <table className="data" data-testid="profiles-table">
          <thead>
            <tr>
              <th scope="col">Profile</th>
              <th scope="col">Jobs</th>
              <th scope="col">Database</th>
              <th scope="col">Max VUs</th>
              <th scope="col">Max NOPM</th>
              <th scope="col">Max TPM</th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((p) => (
              <tr key={p.profileId} className={p.profileId === selected ? 'selected' : ''}>
                <th scope="row">
                  <button type="button" className="linkish" onClick={() => setSearch({ profile: String(p.profileId) })}>
                    Profile {p.profileId}
                  </button>
                </th>
                <td className="num">{p.jobs}</td>
                <td>{p.engine in ENGINE_DISPLAY ? ENGINE_DISPLAY[p.engine as keyof typeof ENGINE_DISPLAY] : p.engine}</td>
                <td className="num">{fmtInt(p.maxVus)}</td>
                <td className="num">{fmtInt(p.maxNopm)}</td>
                <td className="num">{fmtInt(p.maxTpm)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {selected !== undefined && detail.error && <ErrorBox error={detail.error} />}
      {selected !== undefined && detail.data && points.length < 2 && <p className="muted">Profile {selected} has {points.length} completed run; a profile chart needs at least 2 points.</p>}
      {points.length >= 2 && <EChart option={option} label={`Profile ${selected}: NOPM and TPM against active VUs`} testId="profile-chart" height={300} />}
      {selected !== undefined && points.length >= 2 && <ProfileScalabilityView profileId={selected} />}
    </section>
  );
}
