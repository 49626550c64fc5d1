import { useState, type FormEvent } from 'react';
import { setToken } from './api/http.js';
import { useConnectionState } from './live/connection.js';
import { Link, matchPath, useLocation } from './router.js';
import { setTheme, useTheme } from './theme.js';
import { useWorkbench } from './state/workbench.js';
import { TargetsPage } from './pages/TargetsPage.js';
import { SchemaPage } from './pages/SchemaPage.js';
import { RunPage } from './pages/RunPage.js';
import { JobsPage } from './pages/JobsPage.js';
import { JobPage } from './pages/JobPage.js';
import { SharedPage } from './pages/SharedPage.js';
import { ComparePage } from './pages/ComparePage.js';
import { ReplicasPage } from './pages/ReplicasPage.js';

const NAV = [
  { to: '/targets', label: 'Target' },
  { to: '/schema', label: 'Schema' },
  { to: '/run', label: 'Run' },
  { to: '/jobs', label: 'Jobs' },
  { to: '/compare', label: 'Compare' },
  { to: '/replicas', label: 'Replicas' },
];

function Route({ path }: { path: string }) {
  let m: Record<string, string> | null;
  if (path === '/' || path === '/targets') return <TargetsPage />;
  if (path === '/schema') return <SchemaPage />;
  if (path === '/run') return <RunPage />;
  if (path === '/jobs') return <JobsPage />;
  if (path === '/compare') return <ComparePage />;
  if (path === '/replicas') return <ReplicasPage />;
  if ((m = matchPath('/jobs/:id', path))) return <JobPage key={m['id']} id={m['id']!} />;
  if ((m = matchPath('/s/:token', path))) return <SharedPage token={m['token']!} />;
  return (
    <div className="page">
      <h2>Not found</h2>
      <p>
        Nothing lives at <code>{path}</code>. <Link to="/jobs">See the jobs</Link>.
      </p>
    </div>
  );
}

function ConnectionDot() {
  const s = useConnectionState();
  const text = s === 'open' ? 'live' : s === 'idle' ? 'idle' : s === 'connecting' ? 'connecting' : 'reconnecting';
  return (
    <span className={`conn conn-${s}`} role="status" aria-live="polite" data-testid="connection" data-state={s}>
      <span className="dot" aria-hidden="true" /> {text}
    </span>
  );
}

function TokenForm() {
  const [t, setT] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setToken(t.trim() || null);
    location.reload();
  };
  return (
    <form className="card" onSubmit={submit}>
      <h3>This server needs an API token</h3>
      <div className="field">
        <label htmlFor="api-token">API token</label>
        <input id="api-token" type="password" value={t} onChange={(e) => setT(e.target.value)} autoComplete="off" />
      </div>
      <button type="submit" className="primary">
        Use token
      </button>
    </form>
  );
}

export function App() {
  const { path } = useLocation();
  const theme = useTheme();
  const wb = useWorkbench();
  const shared = path.startsWith('/s/');
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link to="/" className="brand">
          Sledge
        </Link>
        {!shared && (
          <nav aria-label="Main">
            {NAV.map((n) => {
              const current = path === n.to || (n.to === '/targets' && path === '/') || (n.to === '/jobs' && path.startsWith('/jobs/'));
              return (
                <Link key={n.to} to={n.to} aria-current={current ? 'page' : undefined}>
                  {n.label}
                </Link>
              );
            })}
          </nav>
        )}
        <span className="spacer" />
        {!shared && <ConnectionDot />}
        <a href="/docs" className="muted small">
          API
        </a>
        <button type="button" className="theme-toggle" onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')} aria-label={`Switch to ${theme === 'dark' ? 'light' : 'dark'} theme`} data-testid="theme-toggle">
          {theme === 'dark' ? '☀ Light' : '☾ Dark'}
        </button>
      </header>
      <main id="main">{wb.loadError?.code === 'SLEDGE_E_UNAUTHORIZED' && !shared ? <TokenForm /> : <Route path={path} />}</main>
    </>
  );
}
