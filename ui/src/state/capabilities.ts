import { useEffect, useState } from 'react';
import type { Capabilities } from '@sledge/protocol';
import { workloadFeature } from '@sledge/protocol';
import { api } from '../api/endpoints.js';
import { cached } from './resource.js';

/** The server's capabilities once loaded (one request per page load, shared with the workbench). */
let known: Capabilities | undefined;

const load = (): Promise<Capabilities> =>
  cached('capabilities', api.capabilities).then((c) => {
    known = c;
    return c;
  });

/** The server's capabilities (drivers, what each engine does with a workload's options); undefined until loaded. */
export function useCapabilities(): Capabilities | undefined {
  const [caps, setCaps] = useState<Capabilities | undefined>(known);
  useEffect(() => {
    let on = true;
    load().then(
      (c) => on && setCaps(c),
      () => undefined,
    );
    return () => {
      on = false;
    };
  }, []);
  return caps;
}

/**
 * Whether an engine does what a workload option asks (capabilities'
 * workloadFeatures: TPROC-H's dop), as far as known now: false before the
 * capabilities have loaded, so an option an engine ignores is never shown as
 * if it applied.
 */
export function engineDoes(engine: string, workload: string, feature: string, caps: Capabilities | undefined = known): boolean {
  return workloadFeature(caps, engine, workload, feature);
}

/** Test hook: the capabilities as if the server had answered these. */
export function setKnownCapabilities(c: Capabilities | undefined): void {
  known = c;
}
