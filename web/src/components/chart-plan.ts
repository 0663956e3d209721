// What to draw for a result under a scene's saved visualization: its chart type with the x and y fields
// it names (or the first dimension and the numeric columns), a series split when it names one. When the
// data cannot be drawn faithfully as that type (a pie of several measures or of negative values, a
// number of many rows) the plan draws the closest faithful form and carries a note saying so; nothing
// is ever drawn as another type without one.

import { VISUALIZATION_TYPES, type VisualizationType } from '../../../src/content/visualization-types.js';

/** The server's own list of chart types a scene may be saved with. */
export const CHART_TYPES = VISUALIZATION_TYPES;
export type ChartType = VisualizationType;
export type PlottedType = 'bar' | 'stacked_bar' | 'line' | 'area' | 'scatter';

export interface Visualization {
  type: ChartType;
  x?: string;
  y?: string[];
  series?: string;
  color?: string;
}

export interface ChartData {
  x: Array<string | number | null>;
  series: Array<{ name: string; values: Array<number | null> }>;
}

export interface Slice {
  label: string;
  value: number;
}

export type ChartPlan =
  | { draw: 'none'; note?: string }
  | { draw: 'number'; label: string; value: number | null; note?: string }
  | { draw: 'pie'; measure: string; slices: Slice[]; note?: string }
  | { draw: PlottedType; data: ChartData; note?: string };

type Row = Record<string, unknown>;

/** The most slices a pie draws: the rest are summed into one "Other" slice. */
export const MAX_SLICES = 12;

const isNumeric = (v: unknown) => v === null || typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)));
const toNumber = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));
const xValue = (v: unknown): string | number | null => (v === null || v === undefined ? null : typeof v === 'number' ? v : String(v));

function numericColumns(columns: string[], rows: Row[]): string[] {
  return columns.filter((k) => rows.every((r) => isNumeric(r[k])));
}

/** The x field and the y fields: the ones the visualization names when the result has them. */
function axes(visualization: Visualization, columns: string[], rows: Row[]): { x: string | undefined; y: string[] } {
  const numeric = numericColumns(columns, rows);
  const x = visualization.x && columns.includes(visualization.x) ? visualization.x : (columns.find((c) => !numeric.includes(c)) ?? columns[0]);
  const named = (visualization.y ?? []).filter((c) => columns.includes(c) && numeric.includes(c));
  const split = splitField(visualization, columns);
  return { x, y: named.length ? named : numeric.filter((c) => c !== x && c !== split) };
}

function splitField(visualization: Visualization, columns: string[]): string | undefined {
  const field = visualization.series ?? visualization.color;
  return field && columns.includes(field) ? field : undefined;
}

const TIME_TEXT = /^\d{4}-\d{2}-\d{2}/;

/**
 * The rows in the order of x when x is a time or a number: a line by month of rows sorted by revenue
 * must still run from the first month to the last, not zigzag. Labels keep the rows' order (the top
 * channels by revenue first).
 */
function inAxisOrder(rows: Row[], x: string): Row[] {
  const values = rows.map((r) => r[x]).filter((v) => v !== null && v !== undefined);
  if (values.length === 0) return rows;
  if (values.every((v) => typeof v === 'string' && TIME_TEXT.test(v))) return [...rows].sort((a, b) => String(a[x] ?? '\uffff').localeCompare(String(b[x] ?? '\uffff')));
  if (values.every((v) => typeof v === 'number')) return [...rows].sort((a, b) => ((a[x] as number | null) ?? Infinity) - ((b[x] as number | null) ?? Infinity));
  return rows;
}

/** One series per y field along x; with a split field, one series per value of it (of the first y field). */
function plotted(visualization: Visualization, columns: string[], given: Row[], x: string, y: string[]): { data: ChartData; note?: string } {
  const rows = inAxisOrder(given, x);
  const split = splitField(visualization, columns);
  if (!split || split === x) {
    return { data: { x: rows.map((r) => xValue(r[x])), series: y.map((k) => ({ name: k, values: rows.map((r) => toNumber(r[k])) })) } };
  }
  const xs: Array<string | number | null> = [];
  const seen = new Map<string, number>();
  for (const r of rows) {
    const key = JSON.stringify(r[x] ?? null);
    if (!seen.has(key)) {
      seen.set(key, xs.length);
      xs.push(xValue(r[x]));
    }
  }
  const groups = new Map<string, Array<number | null>>();
  for (const r of rows) {
    const name = String(r[split] ?? '∅');
    if (!groups.has(name)) groups.set(name, xs.map(() => null));
    groups.get(name)![seen.get(JSON.stringify(r[x] ?? null))!] = toNumber(r[y[0]!]);
  }
  return {
    data: { x: xs, series: [...groups].map(([name, values]) => ({ name, values })) },
    ...(y.length > 1 ? { note: `Split by ${split}: ${y[0]} is drawn; the other measures are in the table.` } : {}),
  };
}

function asPlot(type: PlottedType, visualization: Visualization, columns: string[], rows: Row[], note?: string): ChartPlan {
  const { x, y } = axes(visualization, columns, rows);
  if (!x || y.length === 0 || rows.length === 0) return { draw: 'none', ...(rows.length ? { note: 'No numeric column to chart: the rows are in the table.' } : {}) };
  const { data, note: splitNote } = plotted(visualization, columns, rows, x, y);
  // Stacked bars add up: a negative value would stack below zero and hide what it subtracts from.
  if (type === 'stacked_bar' && data.series.some((s) => s.values.some((v) => v !== null && v < 0))) {
    return { draw: 'bar', data, note: [note, splitNote, 'Some values are negative, which do not stack: drawn as bars side by side.'].filter(Boolean).join(' ') };
  }
  const notes = [note, splitNote].filter(Boolean).join(' ');
  return { draw: type, data, ...(notes ? { note: notes } : {}) };
}

function pie(visualization: Visualization, columns: string[], rows: Row[], labelX: (value: unknown) => string): ChartPlan {
  const { x, y } = axes(visualization, columns, rows);
  if (!x || y.length === 0 || rows.length === 0) return asPlot('bar', visualization, columns, rows);
  const measure = y[0]!;
  const values = rows.map((r) => toNumber(r[measure]) ?? 0);
  if (values.some((v) => v < 0)) return asPlot('bar', visualization, columns, rows, `A pie cannot show negative values: ${measure} is drawn as bars.`);
  if (values.every((v) => v === 0)) return asPlot('bar', visualization, columns, rows, `Every value of ${measure} is zero, which a pie cannot divide: drawn as bars.`);
  const notes: string[] = [];
  if (y.length > 1) notes.push(`A pie shows one measure: ${measure} is drawn; ${y.slice(1).join(', ')} ${y.length > 2 ? 'are' : 'is'} in the table.`);
  let slices = rows.map((r, i) => ({ label: labelX(r[x]), value: values[i]! }));
  if (slices.length > MAX_SLICES) {
    const sorted = [...slices].sort((a, b) => b.value - a.value);
    const rest = sorted.slice(MAX_SLICES - 1);
    slices = [...sorted.slice(0, MAX_SLICES - 1), { label: 'Other', value: rest.reduce((sum, s) => sum + s.value, 0) }];
    notes.push(`The ${MAX_SLICES - 1} largest slices are drawn; the other ${rest.length} are summed as Other.`);
  }
  return { draw: 'pie', measure, slices, ...(notes.length ? { note: notes.join(' ') } : {}) };
}

function number(visualization: Visualization, columns: string[], rows: Row[]): ChartPlan {
  // A single value: the y field named, or the measure beside the dimension, or the only numeric column.
  const measure = axes(visualization, columns, rows).y[0] ?? numericColumns(columns, rows)[0];
  if (rows.length === 1 && measure) return { draw: 'number', label: measure, value: toNumber(rows[0]![measure]) };
  if (rows.length === 0 || !measure) return { draw: 'none' };
  return asPlot('bar', visualization, columns, rows, `A number shows one value; this result has ${rows.length} rows: drawn as bars.`);
}

/** The plan for a scene's saved visualization; `labelX` names a value of x (a pie's slices). */
export function planChart(visualization: Visualization, columns: string[], rows: Row[], labelX: (value: unknown) => string = (v) => String(v ?? '∅')): ChartPlan {
  switch (visualization.type) {
    case 'table':
      return { draw: 'none' };
    case 'number':
      return number(visualization, columns, rows);
    case 'pie':
      return pie(visualization, columns, rows, labelX);
    default:
      return asPlot(visualization.type, visualization, columns, rows);
  }
}

/** A chart of a result with nothing saved (an answer in Ask): the first column along x, every numeric column as a series. */
export function chartOf(columns: string[], rows: Row[]): ChartData | undefined {
  const [x, ...rest] = columns;
  const y = numericColumns(rest, rows);
  if (!x || y.length === 0 || rows.length === 0) return undefined;
  return plotted({ type: 'bar' }, columns, rows, x, y).data;
}

/** The type a result is drawn as when nothing is saved: a number, a line over time, bars otherwise. */
export function defaultChartType(dimensions: string[], timeDimension: (id: string) => boolean): ChartType {
  if (dimensions.length === 0) return 'number';
  return timeDimension(dimensions[0]!) ? 'line' : 'bar';
}
