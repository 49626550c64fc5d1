import { JobDetails } from '../components/JobDetails.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { JobPanel } from '../components/JobPanel.js';
import { api } from '../api/endpoints.js';
import { fromSnapshot } from '../live/jobState.js';
import { useResource } from '../state/resource.js';
import { useTabParam } from './JobPage.js';

/** /s/<token>: a shared job, read-only, from the job store (no API token needed). */
export function SharedPage({ token }: { token: string }) {
  const r = useResource(`shared:${token}`, () => api.shared(token).then(fromSnapshot));
  const [tab, setTab] = useTabParam();
  if (r.error) return <ErrorBox error={r.error} title="Shared job" />;
  if (!r.data) return <p className="muted">Loading shared job…</p>;
  return (
    <div className="page">
      <div className="page-head">
        <h2>
          Shared job <span className="mono">{r.data.job.id}</span>
        </h2>
        <span className="badge">read-only</span>
      </div>
      <JobPanel live={r.data} readOnly tab={tab} onTab={setTab} />
      <JobDetails job={r.data.job} />
    </div>
  );
}
