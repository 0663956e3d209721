// An answer of a semantic query shown as the console shows it (Explore, the CML builder): the periods
// compared, a chart of the value chosen, and the rows with every column in words and formatted for its
// kind (metadata.columns), a measure by its model format and unit (`formats`) and a time by its grain.
// The chart's axes and legend use the grid's own formatter.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { ChartType } from './chart-plan';
import { DataGrid } from './data-grid';
import { SelectField } from './field';
import { rangeText } from './period-presets';
import { chartInput, chartTitle, chartValues } from './result-chart';
import { cellOf, columnLabel, comparisonName, formatMeasure, type ComparisonSummary, type FieldFormat, type ResultColumn } from './result-format';
import { SceneChart } from './scene-chart';

/** The current period in the console's accent, the comparison in grey: the older figures step back. */
const PERIOD_COLORS = ['#1f6feb', '#6e7781'];

interface Props {
  columns: ResultColumn[];
  rows: Array<Record<string, unknown>>;
  labelOf: (id: string) => string;
  comparison?: ComparisonSummary | undefined;
  chartType: ChartType;
  gridLabel: string;
  /** Controls shown beside the chart's value (Explore's chart type). */
  toolbar?: ComponentChildren;
  /** A measure's format and unit from the model, by its id; without it, numbers are written plainly. */
  formats?: ((measure: string) => FieldFormat | undefined) | undefined;
}

const MEASURE_KINDS = new Set(['measure', 'comparison', 'change']);
const PERCENT = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

export function ResultView({ columns, rows, labelOf, comparison, chartType, gridLabel, toolbar, formats }: Props) {
  const values = chartValues(columns, labelOf);
  const [chosen, setChosen] = useState('');
  const value = values.find((v) => v.key === chosen) ?? values[0];
  const input = value ? chartInput(columns, rows, value.key, labelOf, comparison) : undefined;
  const hintsOf = (c: ResultColumn) => (MEASURE_KINDS.has(c.kind) ? formats?.(c.measure ?? c.key) : undefined);
  // The chart writes x as the grid writes that column, and the value as the grid writes the value's
  // column (a share is charted in percent, see result-chart.ts).
  const xColumn = columns.find((c) => c.key === input?.x);
  const valueColumn = columns.find((c) => c.key === value?.key);
  const hints = valueColumn ? hintsOf(valueColumn) : undefined;
  const formatX = xColumn ? (v: string | number | null) => cellOf(xColumn, v).text : undefined;
  const formatY = valueColumn?.format === 'percent' ? (n: number) => `${PERCENT.format(n)} %` : hints ? (n: number) => formatMeasure(n, hints, true) : undefined;
  const formatValue = valueColumn?.format === 'percent' ? formatY : hints ? (n: number) => formatMeasure(n, hints) : undefined;
  return (
    <>
      {comparison ? (
        <p class="comparison-caption">
          {rangeText(comparison.range)} compared with {rangeText(comparison.comparison_range)} ({comparisonName(comparison)}).
          {comparison.partial ? <strong class="tone-partial"> ◐ The current period is not over: its figures are partial.</strong> : null}
        </p>
      ) : null}
      <div class="toolbar">
        {values.length > 1 ? <SelectField label="Chart value" value={value?.key ?? ''} options={values.map((v) => ({ value: v.key, label: v.label }))} onChange={setChosen} /> : null}
        {toolbar}
      </div>
      {input && value ? (
        <SceneChart visualization={{ type: chartType, ...(input.x ? { x: input.x } : {}), y: input.y, ...(input.series ? { series: input.series } : {}) }}
          columns={input.columns} rows={input.rows} title={chartTitle(columns, value.key, labelOf, comparison)} {...(input.compared ? { colors: PERIOD_COLORS } : {})}
          formatX={formatX} formatY={formatY} formatValue={formatValue} xName={input.x ? labelOf(input.x) : undefined} />
      ) : null}
      <DataGrid label={gridLabel} rows={rows}
        columns={columns.map((c) => ({ name: c.key, label: columnLabel(c, labelOf, comparison), cell: (v: unknown) => cellOf(c, v, hintsOf(c)), numeric: c.kind !== 'dimension' && c.kind !== 'partial' }))} />
    </>
  );
}
