import type { NatsConnectionState, ReplicaInfo, ReplicaList } from '@sledge/protocol';
import { ErrorBox } from '../components/ErrorBox.js';
import { Link } from '../router.js';
import { useReplicas } from '../state/replicas.js';
import { fmtNum, localDateTime } from '../util/format.js';
import { ageText } from '../util/replicas.js';

/** How often the page asks for the replicas (they heartbeat every second). */
const REFRESH_MS = 2000;
/** Machine CPU above this may make the replica, not the database, the bottleneck. */
const CPU_HIGH = 90;

const STATE_TEXT: Record<ReplicaInfo['state'], string> = { ready: 'ready', busy: 'busy', lost: 'lost', left: 'left' };
const STATE_ICON: Record<ReplicaInfo['state'], string> = { ready: '✓', busy: '▶', lost: '✗', left: '⏏' };
const STATE_TITLE: Record<ReplicaInfo['state'], string> = {
  ready: 'joined and idle',
  busy: "running a job's virtual users",
  lost: 'no heartbeat for the loss timeout: killed, crashed or cut off',
  left: 'it said it leaves: stopped cleanly (SIGTERM, Ctrl-C)',
};

/** This server's own NATS connection as the page says it. */
function ConnectionText({ c }: { c: NatsConnectionState | undefined }) {
  if (!c || c.state === 'connected') return <span className="good">✓ connected</span>;
  const since = `since ${localDateTime(c.since)}`;
  if (c.state === 'reconnecting') return <span className="bad">✗ disconnected — reconnecting ({since})</span>;
  return <span className="bad">✗ closed ({since}): restart this server</span>;
}

function StateBadge({ state }: { state: ReplicaInfo['state'] }) {
  return (
    <span className={`pill pill-${state}`} data-state={state} title={STATE_TITLE[state]}>
      <span aria-hidden="true">{STATE_ICON[state]}</span> {STATE_TEXT[state]}
    </span>
  );
}

/** A machine's CPU busy %: a small bar and the number (warn colour when high). */
function CpuBar({ pct }: { pct: number | null }) {
  if (pct === null) return <span className="muted">–</span>;
  const high = pct >= CPU_HIGH;
  return (
    <span className={`cpu-cell${high ? ' high' : ''}`} title={high ? 'This load machine is nearly saturated: its VUs may be the bottleneck, not the database' : undefined}>
      <span className="cpu-bar" aria-hidden="true">
        <span style={{ width: `${Math.min(100, Math.max(0, pct))}%` }} />
      </span>
      <span className="num">{fmtNum(pct, 0)} %</span>
    </span>
  );
}

/** What to do to turn scale-out on: NATS with JetStream and a token, the server's environment, a replica per load machine. */
function HowToEnable() {
  return (
    <section className="card install-steps" aria-labelledby="replicas-off-h" data-testid="replicas-disabled">
      <h3 id="replicas-off-h">Scale-out is off on this server</h3>
      <p>
        A replica is a <code>sledge replica</code> process on a load machine. This server (the primary) places a run&apos;s virtual users on the replicas over NATS with JetStream and adds up their
        counters and latency; NOPM and TPM still come from the database, read by this server, so the numbers compare with a run from one machine.
      </p>
      <ol>
        <li>
          Run a NATS server with JetStream and authentication that this server and the load machines can reach, e.g. <code>nats-server -js -sd /var/lib/nats --auth &lt;token&gt;</code> (port 4222).
        </li>
        <li>
          Restart this server with <code>SLEDGE_NATS_URL=nats://&lt;nats-host&gt;:4222</code> and <code>SLEDGE_NATS_TOKEN=&lt;token&gt;</code> in its environment (or <code>SLEDGE_NATS_CREDS</code>, or{' '}
          <code>SLEDGE_NATS_USER</code> and <code>SLEDGE_NATS_PASSWORD</code>). Over a connection without authentication runs on replicas are refused: they receive the target&apos;s credentials.
        </li>
        <li>
          On each load machine, with the same Sledge version and the engine&apos;s client library installed: <code>sledge replica --nats nats://&lt;nats-host&gt;:4222 --token &lt;token&gt; --name load1</code>{' '}
          (a different <code>--name</code> on each).
        </li>
        <li>
          The replicas show on this page within a second. The Run page then has <em>Where VUs run</em>: all ready replicas, or the ones you choose with VUs for each; from a shell,{' '}
          <code>sledge run --replicas all</code> or <code>--replicas load1,load2 --replica-vus load1=50,load2=50</code>.
        </li>
      </ol>
      <p className="muted">
        Each replica opens its own sessions to the database: the target&apos;s host must be reachable from the load machines (not 127.0.0.1 unless they are this machine). TPROC-C runs only; step
        loads, arrival rates and connect pools run on this server.
      </p>
    </section>
  );
}

function ReplicaRow({ r, now, serverVersion }: { r: ReplicaInfo; now: number; serverVersion: string }) {
  return (
    <tr className={r.state === 'lost' ? 'row-lost' : undefined} data-replica={r.name} data-state={r.state}>
      <th scope="row" title={`joined ${localDateTime(r.joinedAt)}`}>
        {r.name}
      </th>
      <td>
        <StateBadge state={r.state} />
      </td>
      <td className="mono">{r.host}</td>
      <td className="num">{r.cores}</td>
      <td data-testid="replica-cpu">
        <CpuBar pct={r.cpuPct} />
      </td>
      <td className="num">{r.processCpuPct === null ? '–' : `${fmtNum(r.processCpuPct, 0)} %`}</td>
      <td>
        {r.versionMatch ? (
          <span className="mono">{r.version}</span>
        ) : (
          <span className="warn-text" data-testid="version-mismatch" title="This replica runs another Sledge version than this server: its numbers may not compare. Install the same version on every machine.">
            <span aria-hidden="true">⚠ </span>
            <span className="mono">{r.version}</span> (server {serverVersion})
          </span>
        )}
      </td>
      <td>{r.drivers.length ? r.drivers.join(', ') : <span className="warn-text">none</span>}</td>
      <td>{r.state === 'busy' && r.jobId ? <Link to={`/jobs/${r.jobId}`}>{r.jobId}</Link> : <span className="muted">–</span>}</td>
      <td className={`num${r.state === 'lost' ? ' bad' : ''}`}>{ageText(now - r.lastSeenAt)} ago</td>
    </tr>
  );
}

function ReplicaTable({ list, now }: { list: ReplicaList; now: number }) {
  if (!list.replicas.length) {
    return (
      <p className="notice" data-testid="replicas-none">
        No replica has joined yet. On a load machine: <code className="mono">sledge replica --nats {list.nats ?? 'nats://<nats-host>:4222'} --token &lt;token&gt; --name load1</code>
      </p>
    );
  }
  return (
    <div className="table-scroll">
      <table className="data replicas" data-testid="replicas-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">State</th>
            <th scope="col">Host</th>
            <th scope="col" className="num">
              Cores
            </th>
            <th scope="col">Machine CPU</th>
            <th scope="col" className="num">
              Process CPU
            </th>
            <th scope="col">Version</th>
            <th scope="col">Drivers</th>
            <th scope="col">Job</th>
            <th scope="col" className="num">
              Last heartbeat
            </th>
          </tr>
        </thead>
        <tbody>
          {list.replicas.map((r) => (
            <ReplicaRow key={r.name} r={r} now={now} serverVersion={list.version} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Scale-out: the NATS connection and the replicas that joined, refreshed every 2 s; how to turn it on when it is off. */
export function ReplicasPage() {
  const { data, error } = useReplicas(REFRESH_MS);
  const count = (s: ReplicaInfo['state']) => data?.replicas.filter((r) => r.state === s).length ?? 0;
  const down = data?.connection !== undefined && data.connection.state !== 'connected';
  return (
    <div className="page">
      <h2>Replicas</h2>
      <ErrorBox error={error} title="Cannot read the replicas" />
      {!data && !error && <p className="muted">Loading…</p>}
      {data && !data.enabled && <HowToEnable />}
      {data?.enabled && (
        <>
          <section className="card" aria-label="NATS connection" data-testid="replicas-nats">
            <dl className="kv">
              <div>
                <dt>NATS</dt>
                <dd className="mono" data-testid="replicas-nats-url">
                  {data.nats}
                </dd>
              </div>
              <div>
                <dt>Connection</dt>
                <dd data-testid="replicas-connection" data-connection={data.connection?.state ?? 'connected'}>
                  <ConnectionText c={data.connection} />
                </dd>
              </div>
              <div>
                <dt>Authentication</dt>
                <dd data-testid="replicas-auth" data-auth={data.authenticated}>
                  {data.authenticated ? <span className={down ? 'muted' : 'good'}>✓ authenticated{down ? ' (when connected)' : ''}</span> : <span className="warn-text">⚠ none</span>}
                </dd>
              </div>
              <div>
                <dt>This server</dt>
                <dd className="mono">{data.version}</dd>
              </div>
              <div>
                <dt>Replicas</dt>
                <dd data-testid="replicas-counts">
                  {count('ready')} ready · {count('busy')} busy · {count('lost')} lost · {count('left')} left
                </dd>
              </div>
            </dl>
            {down && (
              <p className="warn-box" role="alert" data-testid="replicas-connection-lost">
                {data.connection!.state === 'reconnecting'
                  ? "This server lost its connection to NATS and keeps reconnecting: replicas cannot be reached, their heartbeats do not arrive (they turn lost), and runs on replicas are refused until it is back. Check that the NATS server runs and is reachable."
                  : 'This server\'s connection to NATS is closed: scale-out is off until this server restarts.'}
                {data.connection!.reason ? ` (${data.connection!.reason})` : ''}
              </p>
            )}
            {!data.authenticated && (
              <p className="warn-box" role="alert" data-testid="replicas-auth-warning">
                This server&apos;s connection to NATS does not authenticate, so runs on replicas are refused: they would send the target&apos;s credentials over it. Run NATS with authentication
                (<code>nats-server --auth &lt;token&gt;</code>) and restart this server with <code>SLEDGE_NATS_TOKEN</code> (or <code>SLEDGE_NATS_CREDS</code>, or <code>SLEDGE_NATS_USER</code> and{' '}
                <code>SLEDGE_NATS_PASSWORD</code>).
              </p>
            )}
          </section>
          <section className="card" aria-labelledby="replicas-h">
            <div className="card-head">
              <h3 id="replicas-h">Joined replicas</h3>
              <span className="muted small">
                refreshed every {REFRESH_MS / 1000} s{count('ready') > 0 && data.authenticated ? <> · <Link to="/run">run on them</Link> (Where VUs run)</> : null}
              </span>
            </div>
            <ReplicaTable list={data} now={data.now} />
          </section>
        </>
      )}
    </div>
  );
}
