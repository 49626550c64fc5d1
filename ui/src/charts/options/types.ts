import type { ComposeOption } from 'echarts/core';
import type { BoxplotSeriesOption, LineSeriesOption } from 'echarts/charts';
import type {
  AriaComponentOption,
  DataZoomComponentOption,
  GridComponentOption,
  LegendComponentOption,
  TooltipComponentOption,
} from 'echarts/components';

/** The option type of every chart the dashboard draws (only the registered parts). */
export type ChartOption = ComposeOption<
  | LineSeriesOption
  | BoxplotSeriesOption
  | AriaComponentOption
  | DataZoomComponentOption
  | GridComponentOption
  | LegendComponentOption
  | TooltipComponentOption
>;

export type { LineSeriesOption, BoxplotSeriesOption };

/** [x, y] */
export type Point = [number, number];

/** The time window every chart of a job shares (unix ms). */
export interface TimeRange {
  min: number;
  max: number;
}
