// An answer of a semantic query shown as the console shows it (Explore, the CML builder): the periods
// compared, a chart of the value chosen, and the rows with every column in words and formatted for its
// kind (metadata.columns).
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { ChartType } from './chart-plan';
import { DataGrid } from './data-grid';
import { SelectField } from './field';
import { rangeText } from './period-presets';
import { chartInput, chartTitle, chartValues } from './result-chart';
import { cellOf, columnLabel, comparisonName, type ComparisonSummary, type ResultColumn } from './result-format';
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
}

export function ResultView({ columns, rows, labelOf, comparison, chartType, gridLabel, toolbar }: Props) {
  const values = chartValues(columns, labelOf);
  const [chosen, setChosen] = useState('');
  const value = values.find((v) => v.key === chosen) ?? values[0];
  const input = value ? chartInput(columns, rows, value.key, labelOf, comparison) : undefined;
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
          columns={input.columns} rows={input.rows} title={chartTitle(columns, value.key, labelOf, comparison)} {...(input.compared ? { colors: PERIOD_COLORS } : {})} />
      ) : null}
      <DataGrid label={gridLabel} rows={rows}
        columns={columns.map((c) => ({ name: c.key, label: columnLabel(c, labelOf, comparison), cell: (v: unknown) => cellOf(c, v), numeric: c.kind !== 'dimension' && c.kind !== 'partial' }))} />
    </>
  );
}
