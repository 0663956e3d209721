// A uPlot chart of one numeric series per measure over x (a time, a number or a label: labels are
// plotted by their position and named on the axis), drawn as bars, lines, areas or points. `auto` draws
// labels as bars and times or numbers as lines; stacked bars pile each category's series on one another.
// The figure says which it drew (data-chart-type). `formatX` and `formatY` write the axes as the grid
// writes its cells (a month as "Nov 2025", revenue with its currency): with `formatX`, x is drawn by
// position in the order given (chart-plan puts times in time order) and named by it.
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ChartData, PlottedType } from './chart-plan';
import { legendKeys } from './chart-legend-keys';

export type { ChartData } from './chart-plan';

export const COLORS = ['#1f6feb', '#d1242f', '#1a7f37', '#9a6700', '#8250df', '#bf3989', '#0e7c86', '#b35900', '#57606a', '#6639ba', '#116329', '#953800'];

// Value ticks in short form (1.2M, 600K) so that large figures fit beside the plot.
const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
const valueAxis = (format: (n: number) => string): uPlot.Axis => ({
  values: (_u, ticks) => ticks.map((t) => format(t)),
  // Wide enough for the longest tick label (about 7 px a character at the axis font) plus the ticks.
  size: (_u, values) => 24 + 7 * Math.max(3, ...(values ?? []).map((v) => String(v).length)),
});

/**
 * Stacked bars: each series' bar drawn from zero up to its running total, the last series (tallest)
 * first, so that each bar before it shows in front over its own part only. The legend still reads each
 * series' own value.
 */
function stackedTotals(series: ChartData['series']): Array<Array<number | null>> {
  const totals: Array<Array<number | null>> = [];
  series.forEach((s, i) => totals.push(s.values.map((v, j) => (v === null && i === 0 ? null : (i ? (totals[i - 1]![j] ?? 0) : 0) + (v ?? 0)))));
  return totals;
}

// Bars stand side by side in each category, 70 % of its width shared between the series: one bar of
// each series, never one behind another (which would hide the shorter ones). Positions are in the
// x scale's units, where categories are 0, 1, 2…
const GROUP_WIDTH = 0.7;
const SCALE_VALUE = 1 as uPlot.Series.BarsPathBuilderFacetUnit;
function groupedBars(count: number): (series: number) => uPlot.Series.PathBuilder {
  if (count === 1) return () => uPlot.paths.bars!({ size: [GROUP_WIDTH, 80], align: 0 });
  const width = GROUP_WIDTH / count;
  return (series) =>
    uPlot.paths.bars!({
      disp: {
        x0: { unit: SCALE_VALUE, values: (u) => (u.data[0] as number[]).map((x) => x - GROUP_WIDTH / 2 + series * width) },
        size: { unit: SCALE_VALUE, values: (u) => (u.data[0] as number[]).map(() => width) },
      },
    });
}

function asTime(values: Array<string | number | null>): number[] | undefined {
  const times = values.map((v) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) ? Date.parse(v) / 1000 : NaN));
  return times.every((t) => Number.isFinite(t)) ? times : undefined;
}

/** A label for a category on the axis: a time as its date (and time, when it has one). */
function labelOf(value: string | number | null): string {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}[T ]00:00:00(\.0+)?Z?$/.test(value)) return value.slice(0, 10);
  return String(value);
}

/**
 * The categories named on the axis: every one when their labels fit side by side, else every second,
 * third… (about 7 px a character and a gap), so that 25 months never print over one another. The
 * legend names the category under the cursor whichever are named.
 */
function everyNth(count: number, labels: string[], width: number): number[] {
  const widest = 16 + 7 * Math.max(1, ...labels.map((l) => l.length));
  const step = Math.max(1, Math.ceil((count * widest) / Math.max(1, width)));
  return Array.from({ length: count }, (_, i) => i).filter((i) => i % step === 0);
}

/** The type drawn: `auto` is bars for labels, lines for times and numbers. */
type Drawn = PlottedType;
function resolve(kind: PlottedType | 'auto', data: ChartData): PlottedType {
  if (kind !== 'auto') return kind;
  return asTime(data.x) || data.x.every((v) => typeof v === 'number') ? 'line' : 'bar';
}

interface ChartProps {
  data: ChartData;
  title: string;
  kind?: PlottedType | 'auto';
  height?: number;
  colors?: string[];
  formatX?: ((value: string | number | null) => string) | undefined;
  /** An axis tick (short: `$1.2M`). */
  formatY?: ((value: number) => string) | undefined;
  /** A value in the legend (in full: `$1,234,567.50`). */
  formatValue?: ((value: number) => string) | undefined;
  /** What x is, in the legend ("Ordered at (month)"). */
  xName?: string | undefined;
  /** False where a heading beside the chart already names it (a mosaic tile): the title is then only its accessible name. */
  showTitle?: boolean;
}

export function Chart({ data, title, kind = 'auto', height = 260, colors = COLORS, formatX, formatY, formatValue, xName, showTitle = true }: ChartProps) {
  const box = useRef<HTMLElement>(null);
  const type: Drawn = resolve(kind, data);
  useEffect(() => {
    const el = box.current;
    if (!el || data.x.length === 0 || data.series.length === 0) return;
    // Bars stand at category positions (a time is named by its date); the other types keep a time or
    // number axis when x is one, and place labels by position otherwise.
    const barred = type === 'bar' || type === 'stacked_bar';
    const numeric = !barred && data.x.every((v) => typeof v === 'number');
    const times = barred || formatX ? undefined : asTime(data.x);
    const xs = times ?? (numeric ? (data.x as number[]) : data.x.map((_, i) => i));
    const labels = times || numeric ? undefined : data.x.map(formatX ?? labelOf);
    const stacked = type === 'stacked_bar' ? stackedTotals(data.series) : undefined;
    // Drawn tallest first (see stackedTotals); each series keeps its colour and name.
    const order = data.series.map((_, i) => (stacked ? data.series.length - 1 - i : i));
    const bars = type === 'bar' ? groupedBars(data.series.length) : stacked ? () => uPlot.paths.bars!({ size: [GROUP_WIDTH, 80], align: 0 }) : undefined;
    const yText = formatY ?? ((n: number) => compact.format(n));
    // Bars and areas stand on zero, or their heights would mislead.
    const fromZero = barred || type === 'area';
    const options: uPlot.Options = {
      ...(showTitle ? { title } : {}),
      width: Math.max(280, el.clientWidth || 600),
      height,
      scales: {
        x: labels ? { time: false, range: [-0.5, xs.length - 0.5] } : { time: Boolean(times) },
        ...(fromZero ? { y: { range: (_u: uPlot, min: number, max: number): uPlot.Range.MinMax => [Math.min(0, min), max > 0 ? max * 1.05 : 0] } } : {}),
      },
      axes: [labels ? { splits: (u) => everyNth(xs.length, labels, u.bbox.width / devicePixelRatio), values: (_u, ticks) => ticks.map((t) => labels[t] ?? '') } : {}, valueAxis(yText)],
      series: [
        { ...(xName ? { label: xName } : {}), ...(labels ? { value: (_u: uPlot, v: number | null) => (v === null ? '' : (labels[v] ?? '')) } : {}) },
        ...order.map((i): uPlot.Series => {
          const s = data.series[i]!;
          const color = colors[i % colors.length]!;
          const value = (_u: uPlot, _v: number | null, _si: number, at: number | null) => (at === null || s.values[at] === null || s.values[at] === undefined ? '—' : (formatValue ?? ((n: number) => String(n)))(s.values[at]!));
          switch (type) {
            case 'bar':
              return { label: s.name, stroke: color, fill: `${color}cc`, width: 1, paths: bars?.(i), points: { show: false }, value };
            case 'stacked_bar':
              return { label: s.name, stroke: color, fill: color, width: 1, paths: bars?.(i), points: { show: false }, value };
            case 'area':
              return { label: s.name, stroke: color, fill: `${color}55`, width: 2, points: { show: data.x.length < 60 }, value };
            case 'scatter':
              return { label: s.name, stroke: color, fill: color, paths: () => null, points: { show: true, size: 7, fill: color }, value };
            case 'line':
              return { label: s.name, stroke: color, width: 2, points: { show: data.x.length < 60 }, value };
          }
        }),
      ],
    };
    const plot = new uPlot(options, [xs, ...order.map((i) => (stacked ? stacked[i]! : data.series[i]!.values))] as uPlot.AlignedData, el);
    legendKeys(plot);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(280, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [data, title, height, type, colors.join(), formatX, formatY, formatValue, xName, showTitle]);
  return <figure class="chart" ref={box} aria-label={`Chart: ${title}`} data-chart-type={type} />;
}
