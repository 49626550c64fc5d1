import { useCallback, useEffect, useMemo, useRef } from 'react';
import { EChart, type EChartsType } from '../../charts/EChart.js';
import type { ChartOption } from '../../charts/options/types.js';

type Selection = readonly [number, number] | null;

interface BrushEndEvent {
  areas?: { coordRange?: [number, number] | [[number, number]] }[];
}

/** The selected range from a brushEnd event (lineX: [from, to] in axis values), or null when cleared. */
export function selectionFromBrush(e: unknown): Selection {
  const range = (e as BrushEndEvent).areas?.[0]?.coordRange;
  if (!range) return null;
  const [a, b] = (Array.isArray(range[0]) ? range[0] : range) as [number, number];
  if (!Number.isFinite(a) || !Number.isFinite(b) || a === b) return null;
  // Whole milliseconds: the range goes into the REST query as it is.
  return [Math.floor(Math.min(a, b)), Math.ceil(Math.max(a, b))];
}

export interface AshChartProps {
  option: ChartOption;
  selection: Selection;
  onSelect: (s: Selection) => void;
  group: string;
  label: string;
  data: Record<string, string | number>;
}

/**
 * The load chart with a time-range brush: drag across it to select a range
 * (a click clears it). The brush stays on through live updates.
 */
export function AshChart({ option, selection, onSelect, group, label, data }: AshChartProps) {
  const chart = useRef<EChartsType | null>(null);
  /** The selection the chart's brush shows (set by the user's drag or by us). */
  const shown = useRef<Selection>(null);
  const onUpdated = useCallback((c: EChartsType) => {
    if (chart.current === c) return;
    // First option on this chart instance: dragging now draws a time range.
    chart.current = c;
    c.dispatchAction({ type: 'takeGlobalCursor', key: 'brush', brushOption: { brushType: 'lineX', brushMode: 'single' } });
    shown.current = null;
  }, []);
  useEffect(() => {
    const c = chart.current;
    if (!c || c.isDisposed() || sameSelection(shown.current, selection)) return;
    // Selected or cleared from outside the chart (the Clear button): draw it.
    shown.current = selection;
    c.dispatchAction({ type: 'brush', areas: selection ? [{ brushType: 'lineX', xAxisIndex: 0, coordRange: [selection[0], selection[1]] }] : [] });
  }, [selection]);
  const events = useMemo(
    () => ({
      brushEnd: (e: unknown) => {
        const s = selectionFromBrush(e);
        shown.current = s;
        onSelect(s);
      },
    }),
    [onSelect],
  );
  return <EChart option={option} group={group} height={300} label={label} testId="chart-ash" events={events} onUpdated={onUpdated} data={data} />;
}

function sameSelection(a: Selection, b: Selection): boolean {
  return a === b || (!!a && !!b && a[0] === b[0] && a[1] === b[1]);
}
