import { useEffect, useState, useSyncExternalStore } from 'react';
import type { Job } from '@sledge/protocol';
import { withToken } from '../api/http.js';
import { LiveSocket, type ConnectionState, type JobView } from './socket.js';

function wsUrl(): string {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return withToken(`${proto}//${location.host}/api/v1/ws`);
}

/** The application's single WebSocket. */
export const live = new LiveSocket(wsUrl, (url) => new WebSocket(url));

// Tests and the status indicator can reach it from the page.
(globalThis as { __sledgeLive?: LiveSocket }).__sledgeLive = live;

const EMPTY: JobView = { state: null, error: null };

/** Live state of a job (snapshot + frames), or null until the snapshot arrives. */
export function useLiveJob(jobId: string | null | undefined): JobView {
  const [view, setView] = useState<JobView>(() => (jobId ? (live.view(jobId) ?? EMPTY) : EMPTY));
  useEffect(() => {
    if (!jobId) {
      setView(EMPTY);
      return;
    }
    setView(live.view(jobId) ?? EMPTY);
    return live.watchJob(jobId, setView);
  }, [jobId]);
  return view;
}

/** Calls `onJob` for every job-list change pushed by the server. */
export function useJobFeed(onJob: (job: Job) => void): void {
  useEffect(() => live.watchJobList(onJob), [onJob]);
}

export function useConnectionState(): ConnectionState {
  return useSyncExternalStore(
    (cb) => live.onConnection(cb),
    () => live.connection,
  );
}
