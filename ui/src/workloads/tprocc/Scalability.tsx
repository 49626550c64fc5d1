import { useMemo } from 'react';
import { api } from '../../api/endpoints.js';
import { EChart } from '../../charts/EChart.js';
import { paletteFor } from '../../charts/options/palette.js';
import { scalabilityOption } from '../../charts/options/scalability.js';
import { ErrorBox } from '../../components/ErrorBox.js';
import { useResource } from '../../state/resource.js';
import { useTheme } from '../../theme.js';
import { fmtInt } from '../../util/format.js';

/** A step whose runs' sampler never saw a session active (a short 1-VU run whose time is spent in the client): said, not left blank. */
const NO_SAMPLES = 'no active-session samples';

/** Why throughput stopped scaling: the USL fit over a profile's measured points, the latency knee and the waits that grew (docs/scalability.md). */
export function ProfileScalabilityView({ profileId }: { profileId: number }) {
  const palette = paletteFor(useTheme());
  const res = useResource(`profile-scalability:${profileId}`, () => api.profileScalability(profileId));
  const s = res.data;
  const option = useMemo(() => (s ? scalabilityOption(s, palette) : undefined), [s, palette]);
  if (res.error) {
    // Too few VU counts is a normal state of a growing profile: say so quietly.
    return res.error.status === 409 ? (
      <p className="muted" data-testid="scalability-too-few">
        {res.error.message}
      </p>
    ) : (
      <ErrorBox error={res.error} />
    );
  }
  if (!s || !option) return null;
  return (
    <div data-testid="scalability">
      <h4>Scalability (Universal Scalability Law)</h4>
      <p data-testid="scalability-summary">{s.summary}</p>
      {s.fit && s.fit.dof === 0 && <p className="muted small">The fit has as many parameters as VU counts: it passes through every point and has no confidence band. Runs at more VU counts (or repeats) give one.</p>}
      <EChart option={option} label={`Profile ${profileId}: measured ${s.metric.toUpperCase()} against active VUs with the fitted USL curve`} testId="scalability-chart" height={300} />
      <table className="data" data-testid="scalability-steps">
        <thead>
          <tr>
            <th scope="col">VUs</th>
            <th scope="col">{s.metric.toUpperCase()}</th>
            <th scope="col">{s.latencyMetric} ms</th>
            <th scope="col">Active sessions</th>
            <th scope="col">Client CPU ms / 1000 tx</th>
            <th scope="col">Server CPU %</th>
            <th scope="col">Top waits (% of active sessions)</th>
            <th scope="col">Grew most since the previous step</th>
          </tr>
        </thead>
        <tbody>
          {s.steps.map((st, i) => {
            const grew = i > 0 ? s.waitGrowth[i - 1]?.grew ?? [] : [];
            return (
              <tr key={st.vus}>
                <th scope="row" className="num">
                  {st.vus}
                </th>
                <td className="num">{fmtInt(st[s.metric])}</td>
                <td className="num">{st.latencyMs ?? '–'}</td>
                <td className="num">{st.aas ?? '–'}</td>
                <td className="num">{st.clientCpuMsPer1000Tx ?? '–'}</td>
                <td className="num">{st.serverCpuPct ?? '–'}</td>
                <td>
                  {st.waits
                    .filter((w) => w.kind === 'event')
                    .slice(0, 3)
                    .map((w) => `${w.name === w.waitClass ? w.name : `${w.waitClass}:${w.name}`} ${w.pct}%`)
                    .join(', ') || NO_SAMPLES}
                </td>
                <td>{grew.map((g) => `${g.kind === 'event' ? `${g.waitClass}:${g.name}` : g.name} +${g.deltaPct}`).join(', ') || (i > 0 ? 'none by 1 point or more' : '')}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
