import { useState } from 'react';
import { api } from '../../api/endpoints.js';
import type { ApiError } from '../../api/http.js';
import type { TargetAshSample } from '../../api/types.js';
import { paletteFor, waitClassColor } from '../../charts/options/palette.js';
import { allCpu, busyPct } from '../../metrics/cpu.js';
import { useResource } from '../../state/resource.js';
import { useTheme } from '../../theme.js';
import { fmtNum, localTime } from '../../util/format.js';
import { ErrorBox } from '../ErrorBox.js';

const GiB = 1024 ** 3;

/**
 * One active-session sample of the target, without a job (POST
 * /targets/ash): what the database is doing right now, and whether this
 * login may see it.
 */
export function ActiveSessionsNow({ target, configId, onError }: { target: () => unknown; configId: () => number | undefined; onError: (e: unknown) => boolean }) {
  const palette = paletteFor(useTheme());
  const [busy, setBusy] = useState(false);
  const [sample, setSample] = useState<TargetAshSample & { at: number }>();
  const [error, setError] = useState<ApiError>();
  const run = async () => {
    setBusy(true);
    setError(undefined);
    try {
      setSample({ ...(await api.targetAsh(target(), configId())), at: Date.now() });
    } catch (e) {
      setSample(undefined);
      if (!onError(e)) setError(e as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card" aria-labelledby="ash-now-h">
      <div className="card-head">
        <h3 id="ash-now-h">Active sessions now</h3>
        <button type="button" onClick={() => void run()} disabled={busy} data-testid="sample-ash">
          {busy ? 'Sampling…' : 'Sample active sessions'}
        </button>
      </div>
      <ErrorBox error={error} title="Cannot sample" />
      {sample && (
        <>
          <p className="muted small" data-testid="ash-now-source">
            {sample.samples.length} active session{sample.samples.length === 1 ? '' : 's'} at {localTime(sample.at)} from {sample.source}
          </p>
          {sample.samples.length > 0 && (
            <div className="table-wrap">
              <table className="data compact tops" data-testid="ash-now">
                <thead>
                  <tr>
                    <th scope="col" className="session">
                      Session
                    </th>
                    <th scope="col">Class · event</th>
                    <th scope="col">User · program</th>
                    <th scope="col">SQL</th>
                  </tr>
                </thead>
                <tbody>
                  {sample.samples.slice(0, 50).map((s, i) => (
                    <tr key={`${s.session}-${i}`}>
                      <td className="mono">{s.session}</td>
                      <td>
                        <span className="swatch" style={{ background: waitClassColor(s.waitClass, palette) }} aria-hidden="true" /> {s.waitClass} · {s.event}
                      </td>
                      <td className="who">{[s.user, s.program].filter(Boolean).join(' · ') || '–'}</td>
                      <td className="sql-cell mono small" title={s.sql}>
                        {s.sql ?? '–'}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}

/** CPU agents connected to this server (GET /agents): what jobs will record CPU from. */
export function CpuAgents() {
  const r = useResource('agents', api.agents);
  const agents = r.data ?? [];
  return (
    <section className="card" aria-labelledby="agents-h">
      <div className="card-head">
        <h3 id="agents-h">CPU agents</h3>
        <button type="button" className="small" onClick={r.reload}>
          Refresh
        </button>
      </div>
      {r.error && <ErrorBox error={r.error} title="Cannot list agents" />}
      {!r.error && !agents.length && !r.loading && (
        <p className="muted">
          No agent connected: jobs will not record CPU. Start one on each host with <code>sledge-agent --server ws://&lt;sledge-host&gt;:8080</code>.
        </p>
      )}
      {agents.length > 0 && (
        <ul className="agents" data-testid="agents">
          {agents.map((a) => (
            <li key={a.id}>
              <strong>{a.label}</strong>{' '}
              <span className="muted small">
                {a.system.hostname} · {a.system.cpuCount} CPUs · {fmtNum(a.system.memoryBytes / GiB, 1)} GiB · {a.system.os}
                {a.last ? ` · ${fmtNum(busyPct(allCpu(a.last)), 0)}% busy` : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
