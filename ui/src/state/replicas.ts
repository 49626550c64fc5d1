import { useEffect, useState } from 'react';
import type { ReplicaList } from '@sledge/protocol';
import { api } from '../api/endpoints.js';
import type { ApiError } from '../api/http.js';

export interface ReplicasView {
  /** The last answer (kept while a later request fails). */
  data: ReplicaList | undefined;
  /** The last request's error, cleared by the next answer. */
  error: ApiError | undefined;
  /** When (browser clock, epoch ms) the last answer arrived. */
  at: number | undefined;
}

/**
 * GET /replicas now and then every `everyMs` after the previous answer (no
 * requests pile up behind a slow server); `everyMs` null fetches once.
 * `whenOff: false` stops asking once the server says scale-out is off (it
 * stays off until the server restarts).
 */
export function useReplicas(everyMs: number | null, opts: { whenOff?: boolean } = {}): ReplicasView {
  const whenOff = opts.whenOff ?? true;
  const [view, setView] = useState<ReplicasView>({ data: undefined, error: undefined, at: undefined });
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = () => {
      let again = true;
      api
        .replicas()
        .then(
          (data) => {
            if (!data.enabled && !whenOff) again = false;
            if (live) setView({ data, error: undefined, at: Date.now() });
          },
          (error: ApiError) => live && setView((v) => ({ ...v, error })),
        )
        .finally(() => {
          if (live && again && everyMs !== null) timer = setTimeout(load, everyMs);
        });
    };
    load();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [everyMs, whenOff]);
  return view;
}
