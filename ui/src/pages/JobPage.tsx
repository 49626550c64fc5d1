import { useState } from 'react';
import { EXPORT_SERIES, api, exportUrl, type ExportSeries } from '../api/endpoints.js';
import type { ApiError } from '../api/http.js';
import { ConfirmButton } from '../components/ConfirmButton.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { JobDetails } from '../components/JobDetails.js';
import { JobPanel, type JobTab } from '../components/JobPanel.js';
import { RerunActions } from '../components/RerunActions.js';
import { ReportButton } from '../components/ReportButton.js';
import { reportPath } from '../api/download.js';
import { ThresholdResults } from '../components/ThresholdResults.js';
import { ValidityPanel } from '../components/ValidityPanel.js';
import { SharePanel } from '../components/SharePanel.js';
import { useLiveJob } from '../live/connection.js';
import { isTerminalStatus } from '../live/jobState.js';
import { navigate, setSearch, useLocation } from '../router.js';

/** The job view named in the address (?view=metrics), so a link can open the Metrics tab. */
export function useTabParam(): [JobTab, (t: JobTab) => void] {
  const { search } = useLocation();
  const tab: JobTab = search.get('view') === 'metrics' ? 'metrics' : 'overview';
  return [tab, (t) => setSearch({ view: t === 'metrics' ? 'metrics' : undefined })];
}

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

function LinkBox({ url, label, testId }: { url: string; label: string; testId: string }) {
  return (
    <label className="link-box">
      {label}{' '}
      <input readOnly value={url} onFocus={(e) => e.currentTarget.select()} data-testid={testId} size={Math.min(80, url.length)} />
    </label>
  );
}

/** The permalink: /jobs/<id>. Live while the job runs, the same charts from the store once it has finished. */
export function JobPage({ id }: { id: string }) {
  const view = useLiveJob(id);
  const [copied, setCopied] = useState<string>();
  const [sharing, setSharing] = useState(false);
  const [series, setSeries] = useState<ExportSeries>('tcount');
  const [error, setError] = useState<ApiError>();
  const [tab, setTab] = useTabParam();
  const permalink = `${location.origin}/jobs/${id}`;

  if (view.error) return <ErrorBox error={view.error} title={`Job ${id}`} />;
  if (!view.state) return <p className="muted">Loading job {id}…</p>;
  const { job } = view.state;

  return (
    <div className="page">
      <div className="page-head">
        <h2>
          Job <span className="mono" data-testid="job-id">{job.id}</span>
        </h2>
        <div className="actions">
          <RerunActions job={job} />
          <button
            type="button"
            data-testid="copy-link"
            onClick={async () => setCopied((await copy(permalink)) ? 'Link copied.' : 'Copy the link below.')}
          >
            Copy link
          </button>
          <button type="button" data-testid="share-link" aria-expanded={sharing} aria-controls="share-panel" onClick={() => setSharing((v) => !v)} title="The job's read-only share links: copy, revoke, or create one">
            Share…
          </button>
          <ReportButton path={reportPath(job.id)} fileName={`sledge-${job.id}.html`} testId="report" title="A self-contained HTML report of this job: it opens offline and can be mailed" onError={setError} />
          <a className="button" href={exportUrl(job.id, 'json')} download data-testid="export-json">
            Export JSON
          </a>
          <span className="inline">
            <label htmlFor="csv-series" className="sr-only">
              CSV series
            </label>
            <select id="csv-series" value={series} onChange={(e) => setSeries(e.target.value as ExportSeries)}>
              {EXPORT_SERIES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
            <a className="button" href={exportUrl(job.id, 'csv', series)} download data-testid="export-csv">
              Export CSV
            </a>
          </span>
          <ConfirmButton
            title={`Delete job ${job.id}`}
            message={<p>Delete this job and everything it stored? Its permalink and share links stop working.</p>}
            confirmLabel="Delete job"
            className="danger"
            disabled={!isTerminalStatus(job.status)}
            testId="delete-job"
            onConfirm={async () => {
              try {
                await api.deleteJob(job.id);
                navigate('/jobs');
              } catch (e) {
                setError(e as ApiError);
              }
            }}
          >
            Delete
          </ConfirmButton>
        </div>
      </div>
      {copied && (
        <p className="good" role="status">
          {copied}
        </p>
      )}
      {copied === 'Copy the link below.' && (
        <div className="links">
          <LinkBox url={permalink} label="Permalink" testId="permalink" />
        </div>
      )}
      {sharing && (
        <div id="share-panel">
          <SharePanel jobId={job.id} />
        </div>
      )}
      <ErrorBox error={error} />
      <ThresholdResults job={job} />
      <ValidityPanel job={job} />
      <JobPanel live={view.state} tab={tab} onTab={setTab} />
      <JobDetails job={job} />
    </div>
  );
}
