import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { OutputLine } from '@sledge/protocol';
import { filterLines, prependOlder, vuLabel, vusOf } from '../util/output.js';
import { localTime } from '../util/format.js';

const ROW = 20;
const PAGE = 10_000;

export interface OutputLogProps {
  /** The newest lines (live window or snapshot). */
  lines: readonly OutputLine[];
  /** Lines the job has in total. */
  total: number;
  /** Fetch lines with seq > afterSeq (REST paging); absent on read-only shared pages. */
  fetchAfter?: ((afterSeq: number, limit: number) => Promise<OutputLine[]>) | undefined;
  /**
   * The job is running: the view starts at the newest line and follows it as
   * lines arrive (until the reader scrolls up; back at the bottom it follows
   * again). It stays at the tail when the job ends and its last lines land.
   */
  live?: boolean;
  height?: number;
}

/** The job's output: virtualized (100,000+ lines stay fast), filtered by VU and text, older lines paged on demand. */
export function OutputLog({ lines, total, fetchAfter, live = false, height = 360 }: OutputLogProps) {
  const [older, setOlder] = useState<OutputLine[]>([]);
  const [vu, setVu] = useState<number | null>(null);
  const [text, setText] = useState('');
  const [loading, setLoading] = useState(false);
  const [loadError, setLoadError] = useState<string>();
  const deferredText = useDeferredValue(text);

  const all = useMemo(() => (older.length ? prependOlder(lines, older) : (lines as OutputLine[])), [lines, older]);
  const vus = useMemo(() => vusOf(all), [all]);
  const shown = useMemo(() => filterLines(all, vu, deferredText), [all, vu, deferredText]);
  const firstSeq = all[0]?.seq ?? 1;
  const missing = Math.max(0, Math.min(total - all.length, firstSeq - 1));

  const loadOlder = useCallback(
    async (everything: boolean) => {
      if (!fetchAfter) return;
      setLoading(true);
      setLoadError(undefined);
      try {
        let acc = older;
        let first = (acc[0] ?? lines[0])?.seq ?? total + 1;
        while (first > 1) {
          const from = Math.max(0, first - 1 - PAGE);
          const page = await fetchAfter(from, first - 1 - from);
          const fresh = page.filter((l) => l.seq < first);
          if (!fresh.length) break;
          acc = fresh.concat(acc);
          first = fresh[0]!.seq;
          if (!everything) break;
        }
        setOlder(acc);
      } catch (e) {
        setLoadError(e instanceof Error ? e.message : String(e));
      } finally {
        setLoading(false);
      }
    },
    [fetchAfter, older, lines, total],
  );

  const scroller = useRef<HTMLDivElement>(null);
  // Following the tail: on for a log opened live; off when the reader scrolls up, on again at the bottom.
  // Only a scroll towards the top turns it off, so lines arriving between a programmatic scroll and its
  // scroll event (the content grew, the view is momentarily not at the bottom) do not stop it.
  const follow = useRef(live);
  const lastTop = useRef(0);
  const virtual = useVirtualizer({ count: shown.length, getScrollElement: () => scroller.current, estimateSize: () => ROW, overscan: 20 });

  useEffect(() => {
    if (follow.current && shown.length) virtual.scrollToIndex(shown.length - 1, { align: 'end' });
  }, [shown.length, virtual]);

  return (
    <div className="output">
      <div className="output-toolbar" role="group" aria-label="Output filters">
        <label>
          VU{' '}
          <select data-testid="output-vu" value={vu === null ? '' : String(vu)} onChange={(e) => setVu(e.target.value === '' ? null : Number(e.target.value))}>
            <option value="">all</option>
            {vus.map((v) => (
              <option key={v} value={v}>
                {vuLabel(v)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Filter{' '}
          <input type="search" data-testid="output-filter" placeholder="text in line" value={text} onChange={(e) => setText(e.target.value)} />
        </label>
        <span className="muted" data-testid="output-count">
          {shown.length.toLocaleString('en-US')} of {all.length.toLocaleString('en-US')} lines loaded
          {total > all.length ? ` (${total.toLocaleString('en-US')} in the job)` : ''}
        </span>
        {missing > 0 && fetchAfter && (
          <span className="output-more">
            <button type="button" disabled={loading} onClick={() => void loadOlder(false)}>
              Load {Math.min(PAGE, missing).toLocaleString('en-US')} earlier
            </button>
            <button type="button" disabled={loading} onClick={() => void loadOlder(true)} data-testid="output-load-all">
              Load all
            </button>
          </span>
        )}
        {loading && <span className="muted">loading…</span>}
        {loadError && <span className="field-error">{loadError}</span>}
      </div>
      <div
        ref={scroller}
        className="output-lines"
        style={{ height }}
        tabIndex={0}
        role="log"
        aria-label="Job output"
        onScroll={(e) => {
          const el = e.currentTarget;
          if (el.scrollHeight - el.scrollTop - el.clientHeight < ROW * 2) follow.current = true;
          else if (el.scrollTop < lastTop.current) follow.current = false;
          lastTop.current = el.scrollTop;
        }}
      >
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((row) => {
            const l = shown[row.index]!;
            return (
              <div key={l.seq} className={`line vu-${Math.min(l.vu, 2)}`} style={{ transform: `translateY(${row.start}px)`, height: ROW }} data-vu={l.vu}>
                <span className="ts">{localTime(l.ts)}</span>
                <span className="who">{l.vu === 0 ? 'status' : `VU ${l.vu}`}</span>
                <span className="txt">{l.text}</span>
              </div>
            );
          })}
        </div>
        {!shown.length && <p className="muted empty">{all.length ? 'No line matches the filter.' : 'No output yet.'}</p>}
      </div>
    </div>
  );
}
