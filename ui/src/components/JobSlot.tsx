import { useLiveJob } from '../live/connection.js';
import { ErrorBox } from './ErrorBox.js';
import { JobPanel } from './JobPanel.js';

/** The live panel of the job a page started last (or nothing yet). */
export function JobSlot({ jobId, empty }: { jobId: string | undefined; empty: string }) {
  const view = useLiveJob(jobId);
  if (!jobId) return <p className="muted">{empty}</p>;
  if (view.error) return <ErrorBox error={view.error} title={`Job ${jobId}`} />;
  if (!view.state) return <p className="muted">Connecting to job {jobId}…</p>;
  return <JobPanel live={view.state} linkToJob />;
}
