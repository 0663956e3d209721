// A uPlot chart of one numeric series per measure over the first column (a time, a number or a label:
// labels are plotted by their position and named on the axis).
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

const COLORS = ['#1f6feb', '#d1242f', '#1a7f37', '#9a6700', '#8250df', '#bf3989'];

export interface ChartData {
  x: Array<string | number | null>;
  series: Array<{ name: string; values: Array<number | null> }>;
}

// Value ticks in short form (1.2M, 600K) so that large figures fit beside the plot.
const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
const valueAxis: uPlot.Axis = {
  values: (_u, ticks) => ticks.map((t) => compact.format(t)),
  // Wide enough for the longest tick label (about 7 px a character at the axis font) plus the ticks.
  size: (_u, values) => 24 + 7 * Math.max(3, ...(values ?? []).map((v) => String(v).length)),
};

function asTime(values: Array<string | number | null>): number[] | undefined {
  const times = values.map((v) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) ? Date.parse(v) / 1000 : NaN));
  return times.every((t) => Number.isFinite(t)) ? times : undefined;
}

export function Chart({ data, title, height = 260 }: { data: ChartData; title: string; height?: number }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || data.x.length === 0 || data.series.length === 0) return;
    const times = asTime(data.x);
    const numeric = data.x.every((v) => typeof v === 'number');
    const xs = times ?? (numeric ? (data.x as number[]) : data.x.map((_, i) => i));
    const labels = times || numeric ? undefined : data.x.map((v) => String(v));
    // Categories (labels) are bars at whole positions, one tick each; times and numbers are lines.
    const bars = labels ? uPlot.paths.bars!({ size: [0.7 / data.series.length, 80], align: 0 }) : undefined;
    const options: uPlot.Options = {
      title,
      width: Math.max(280, el.clientWidth || 600),
      height,
      scales: {
        x: labels ? { time: false, range: [-0.5, xs.length - 0.5] } : { time: Boolean(times) },
        // Bars stand on zero, or their heights would mislead.
        ...(labels ? { y: { range: (_u: uPlot, min: number, max: number): uPlot.Range.MinMax => [Math.min(0, min), max > 0 ? max * 1.05 : 0] } } : {}),
      },
      axes: [labels ? { splits: () => xs.map((_, i) => i), values: (_u, ticks) => ticks.map((t) => labels[t] ?? '') } : {}, valueAxis],
      series: [
        {},
        ...data.series.map((s, i) => {
          const color = COLORS[i % COLORS.length]!;
          return bars
            ? { label: s.name, stroke: color, fill: `${color}cc`, width: 1, paths: bars, points: { show: false } }
            : { label: s.name, stroke: color, width: 2, points: { show: data.x.length < 60 } };
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
  }, [data, title, height]);
  return <figure class="chart" ref={box} aria-label={`Chart: ${title}`} />;
}

/** A chart of a result: the first column along x, every numeric column as a series. */
export function chartOf(columns: string[], rows: Array<Record<string, unknown>>): ChartData | undefined {
  if (columns.length < 2 || rows.length === 0) return undefined;
  const [xKey, ...rest] = columns;
  const numericKeys = rest.filter((k) => rows.every((r) => r[k] === null || typeof r[k] === 'number' || (typeof r[k] === 'string' && r[k] !== '' && !Number.isNaN(Number(r[k])))));
  if (numericKeys.length === 0) return undefined;
  return {
    x: rows.map((r) => (r[xKey!] === null ? null : (r[xKey!] as string | number))),
    series: numericKeys.map((k) => ({ name: k, values: rows.map((r) => (r[k] === null ? null : Number(r[k]))) })),
  };
}
