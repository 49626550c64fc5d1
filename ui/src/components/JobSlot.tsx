import { useState } from 'react';
import { useLiveJob } from '../live/connection.js';
import { ErrorBox } from './ErrorBox.js';
import { JobPanel, type JobTab } from './JobPanel.js';
import { ThresholdResults } from './ThresholdResults.js';
import { ValidityPanel } from './ValidityPanel.js';

/** The live panel of the job a page started last (or nothing yet). The chosen tab stays when the next job starts. */
export function JobSlot({ jobId, empty }: { jobId: string | undefined; empty: string }) {
  const view = useLiveJob(jobId);
  const [tab, setTab] = useState<JobTab>('overview');
  if (!jobId) return <p className="muted">{empty}</p>;
  if (view.error) return <ErrorBox error={view.error} title={`Job ${jobId}`} />;
  if (!view.state) return <p className="muted">Connecting to job {jobId}…</p>;
  return (
    <>
      <ThresholdResults job={view.state.job} />
      <ValidityPanel job={view.state.job} />
      <JobPanel live={view.state} linkToJob tab={tab} onTab={setTab} />
    </>
  );
}
