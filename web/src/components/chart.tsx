// A uPlot chart of one numeric series per measure over x (a time, a number or a label: labels are
// plotted by their position and named on the axis), drawn as bars, lines, areas or points. `auto` draws
// labels as bars and times or numbers as lines. The figure says which it drew (data-chart-type).
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ChartData, PlottedType } from './chart-plan';

export type { ChartData } from './chart-plan';

export const COLORS = ['#1f6feb', '#d1242f', '#1a7f37', '#9a6700', '#8250df', '#bf3989', '#0e7c86', '#b35900', '#57606a', '#6639ba', '#116329', '#953800'];

// Value ticks in short form (1.2M, 600K) so that large figures fit beside the plot.
const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
const valueAxis: uPlot.Axis = {
  values: (_u, ticks) => ticks.map((t) => compact.format(t)),
  // Wide enough for the longest tick label (about 7 px a character at the axis font) plus the ticks.
  size: (_u, values) => 24 + 7 * Math.max(3, ...(values ?? []).map((v) => String(v).length)),
};

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

/** The type drawn: `auto` is bars for labels, lines for times and numbers. */
function resolve(kind: PlottedType | 'auto', data: ChartData): PlottedType {
  if (kind !== 'auto') return kind;
  return asTime(data.x) || data.x.every((v) => typeof v === 'number') ? 'line' : 'bar';
}

export function Chart({ data, title, kind = 'auto', height = 260, colors = COLORS }: { data: ChartData; title: string; kind?: PlottedType | 'auto'; height?: number; colors?: string[] }) {
  const box = useRef<HTMLElement>(null);
  const type = resolve(kind, data);
  useEffect(() => {
    const el = box.current;
    if (!el || data.x.length === 0 || data.series.length === 0) return;
    // Bars stand at category positions (a time is named by its date); the other types keep a time or
    // number axis when x is one, and place labels by position otherwise.
    const times = type === 'bar' ? undefined : asTime(data.x);
    const numeric = type !== 'bar' && data.x.every((v) => typeof v === 'number');
    const xs = times ?? (numeric ? (data.x as number[]) : data.x.map((_, i) => i));
    const labels = times || numeric ? undefined : data.x.map(labelOf);
    const bars = type === 'bar' ? groupedBars(data.series.length) : undefined;
    // Bars and areas stand on zero, or their heights would mislead.
    const fromZero = type === 'bar' || type === 'area';
    const options: uPlot.Options = {
      title,
      width: Math.max(280, el.clientWidth || 600),
      height,
      scales: {
        x: labels ? { time: false, range: [-0.5, xs.length - 0.5] } : { time: Boolean(times) },
        ...(fromZero ? { y: { range: (_u: uPlot, min: number, max: number): uPlot.Range.MinMax => [Math.min(0, min), max > 0 ? max * 1.05 : 0] } } : {}),
      },
      axes: [labels ? { splits: () => xs.map((_, i) => i), values: (_u, ticks) => ticks.map((t) => labels[t] ?? '') } : {}, valueAxis],
      series: [
        {},
        ...data.series.map((s, i): uPlot.Series => {
          const color = colors[i % colors.length]!;
          switch (type) {
            case 'bar':
              return { label: s.name, stroke: color, fill: `${color}cc`, width: 1, paths: bars?.(i), points: { show: false } };
            case 'area':
              return { label: s.name, stroke: color, fill: `${color}55`, width: 2, points: { show: data.x.length < 60 } };
            case 'scatter':
              return { label: s.name, stroke: color, fill: color, paths: () => null, points: { show: true, size: 7, fill: color } };
            case 'line':
              return { label: s.name, stroke: color, width: 2, points: { show: data.x.length < 60 } };
          }
        }),
      ],
    };
    const plot = new uPlot(options, [xs, ...data.series.map((s) => s.values)] as uPlot.AlignedData, el);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(280, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [data, title, height, type, colors.join()]);
  return <figure class="chart" ref={box} aria-label={`Chart: ${title}`} data-chart-type={type} />;
}
