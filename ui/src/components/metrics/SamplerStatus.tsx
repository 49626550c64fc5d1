import type { SamplerStatus } from '@sledge/protocol';
import { localTime } from '../../util/format.js';

const NAMES: Record<string, string> = { ash: 'Active session history', cpu: 'CPU agents' };
const nameOf = (s: string) => NAMES[s] ?? (s.startsWith('cpu:') ? `CPU agent ${s.slice(4)}` : s);

/**
 * What each sampler recorded for this job, or why it could not and what to
 * grant or enable (a sampler that cannot work never fails the job).
 */
export function SamplerStatusList({ statuses }: { statuses: readonly SamplerStatus[] }) {
  if (!statuses.length) return null;
  return (
    <ul className="sampler-status" data-testid="sampler-status" aria-label="Samplers">
      {statuses.map((s) => (
        <li key={s.sampler} className={s.ok ? 'ok' : 'fail'} data-sampler={s.sampler} data-ok={String(s.ok)}>
          <span aria-hidden="true">{s.ok ? '✓' : '✗'}</span> <strong>{nameOf(s.sampler)}</strong>{' '}
          {s.ok ? (
            <span>
              sampling {s.source ?? 'every second'}
              {s.reason ? <span className="warn"> · {s.reason}</span> : null}
            </span>
          ) : (
            <span>
              <span className="bad">not recorded</span>
              {s.reason ? `: ${s.reason}` : ''}
            </span>
          )}
          <span className="muted small"> · {localTime(s.ts)}</span>
          {s.fix && (
            <div className="fix">
              <span className="fix-label">Fix:</span> <code>{s.fix}</code>
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
