import type { ComposeOption } from 'echarts/core';
import type { BarSeriesOption, BoxplotSeriesOption, CustomSeriesOption, LineSeriesOption } from 'echarts/charts';
import type {
  AriaComponentOption,
  BrushComponentOption,
  DataZoomComponentOption,
  GridComponentOption,
  LegendComponentOption,
  MarkAreaComponentOption,
  MarkLineComponentOption,
  TooltipComponentOption,
  VisualMapComponentOption,
} from 'echarts/components';

/** The option type of every chart the dashboard draws (only the registered parts). */
export type ChartOption = ComposeOption<
  | LineSeriesOption
  | BarSeriesOption
  | BoxplotSeriesOption
  | CustomSeriesOption
  | AriaComponentOption
  | BrushComponentOption
  | DataZoomComponentOption
  | GridComponentOption
  | LegendComponentOption
  | MarkAreaComponentOption
  | MarkLineComponentOption
  | TooltipComponentOption
  | VisualMapComponentOption
>;

export type { LineSeriesOption, BarSeriesOption, BoxplotSeriesOption, CustomSeriesOption };

/** [x, y] */
export type Point = [number, number];

/** The time window every chart of a job shares (unix ms). */
export interface TimeRange {
  min: number;
  max: number;
}
