import { WAIT_CLASSES } from '@sledge/protocol';
import type { AshTops } from '../../metrics/ash.js';
import { waitClassColor, type ChartPalette } from '../../charts/options/palette.js';
import { fmtNum } from '../../util/format.js';

export interface EventKey {
  waitClass: string;
  event: string;
}

/** A share bar: `pct` of the track, split by class in the fixed class order. */
export function ClassBar({ pct, byClass, palette }: { pct: number; byClass: Record<string, number>; palette: ChartPalette }) {
  const total = Object.values(byClass).reduce((a, b) => a + b, 0);
  const parts = WAIT_CLASSES.filter((c) => (byClass[c] ?? 0) > 0);
  const title = parts.map((c) => `${c} ${fmtNum(byClass[c]!, 2)}`).join(', ');
  return (
    <span className="class-bar" title={title} aria-hidden="true">
      <span className="class-bar-fill" style={{ width: `${Math.min(100, Math.max(0, pct))}%` }}>
        {parts.map((c) => (
          <span key={c} style={{ width: `${total > 0 ? ((byClass[c] ?? 0) / total) * 100 : 0}%`, background: waitClassColor(c, palette) }} />
        ))}
      </span>
    </span>
  );
}

const Swatch = ({ cls, palette }: { cls: string; palette: ChartPalette }) => <span className="swatch" style={{ background: waitClassColor(cls, palette) }} aria-hidden="true" />;

interface TableProps {
  tops: AshTops | null;
  palette: ChartPalette;
  testId: string;
  meta: Record<string, string | number>;
}

const attrs = (meta: Record<string, string | number>) => Object.fromEntries(Object.entries(meta).map(([k, v]) => [`data-${k}`, String(v)]));

export function TopEvents({ tops, palette, testId, meta, selected, onSelect }: TableProps & { selected: EventKey | null; onSelect: (e: EventKey | null) => void }) {
  const rows = tops?.topEvents ?? [];
  return (
    <table className="data compact tops" data-testid={testId} {...attrs(meta)}>
      <thead>
        <tr>
          <th scope="col">Event</th>
          <th scope="col">Class</th>
          <th scope="col" className="num">
            AAS
          </th>
          <th scope="col" className="share">
            % activity
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((e) => {
          const on = selected?.waitClass === e.waitClass && selected.event === e.event;
          return (
            <tr key={`${e.waitClass}:${e.event}`} className={on ? 'selected' : undefined} data-event={e.event} data-class={e.waitClass}>
              <td>
                <button type="button" className="cell-button" aria-pressed={on} onClick={() => onSelect(on ? null : { waitClass: e.waitClass, event: e.event })} title="Show the SQL that waited on this event">
                  {e.event}
                </button>
              </td>
              <td>
                <Swatch cls={e.waitClass} palette={palette} /> {e.waitClass}
              </td>
              <td className="num">{fmtNum(e.aas, 2)}</td>
              <td className="share">
                <ClassBar pct={e.pct} byClass={{ [e.waitClass]: e.aas }} palette={palette} /> <span className="pct">{fmtNum(e.pct, 1)}%</span>
              </td>
            </tr>
          );
        })}
        {!rows.length && (
          <tr>
            <td colSpan={4} className="muted">
              No active sessions sampled in this range.
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

export function TopSql({ rows, palette, testId, meta, selected, onSelect }: Omit<TableProps, 'tops'> & { rows: AshTops['topSql']; selected: string | null; onSelect: (id: string | null) => void }) {
  return (
    <table className="data compact tops" data-testid={testId} {...attrs(meta)}>
      <thead>
        <tr>
          <th scope="col">SQL</th>
          <th scope="col" className="num">
            AAS
          </th>
          <th scope="col" className="share">
            % activity by class
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((q) => {
          const on = selected === q.sqlId;
          return (
            <tr key={q.sqlId} className={on ? 'selected' : undefined} data-sql-id={q.sqlId}>
              <td className="sql-cell">
                <button type="button" className="cell-button sql-text" aria-pressed={on} onClick={() => onSelect(on ? null : q.sqlId)} title={q.sql || q.sqlId}>
                  {q.sql || q.sqlId}
                </button>
              </td>
              <td className="num">{fmtNum(q.aas, 2)}</td>
              <td className="share">
                <ClassBar pct={q.pct} byClass={q.byClass} palette={palette} /> <span className="pct">{fmtNum(q.pct, 1)}%</span>
              </td>
            </tr>
          );
        })}
        {!rows.length && (
          <tr>
            <td colSpan={3} className="muted">
              No statements sampled in this range.
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

export function TopSessions({ tops, palette, testId, meta }: TableProps) {
  const rows = tops?.topSessions ?? [];
  return (
    <table className="data compact tops" data-testid={testId} {...attrs(meta)}>
      <thead>
        <tr>
          <th scope="col" className="session">
            Session
          </th>
          <th scope="col" className="num vu-col">
            VU
          </th>
          <th scope="col">User · program</th>
          <th scope="col" className="share">
            % activity
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((s) => (
          <tr key={s.session} data-session={s.session}>
            <td className="mono">{s.session}</td>
            <td className="num">{s.vu ?? '–'}</td>
            <td className="who" title={[s.user, s.program].filter(Boolean).join(' · ')}>
              {[s.program, s.user].filter(Boolean).join(' · ') || <span className="muted">–</span>}
            </td>
            <td className="share">
              <ClassBar pct={s.pct} byClass={s.byClass} palette={palette} /> <span className="pct">{fmtNum(s.pct, 1)}%</span>
            </td>
          </tr>
        ))}
        {!rows.length && (
          <tr>
            <td colSpan={4} className="muted">
              No sessions sampled in this range.
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
