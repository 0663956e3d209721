// A scene's run drawn as its saved chart type (scene-chart.tsx), with its rows in a grid beneath, each
// column named and each value written as Explore writes them (result-format.ts): from the answer's own
// description of its columns (metadata.columns) and the labels, formats and units the model gives the
// fields of the scene's node. Until those fields are read, the columns go by their ids.
import type { Visualization } from '../../components/chart-plan';
import { DataGrid } from '../../components/data-grid';
import { dimensionLabel } from '../../components/dimension-picker';
import { cellOf, columnLabel, formatMeasure, type ResultColumn } from '../../components/result-format';
import { SceneChart } from '../../components/scene-chart';
import type { SceneRun } from './content-types';
import type { NodeFields } from './mosaic-fields';

type Row = Record<string, unknown>;

/** The columns as the answer describes them; an answer without that description, by its first row's keys. */
function describedColumns(run: SceneRun): ResultColumn[] {
  if (run.metadata.columns?.length) return run.metadata.columns;
  return Object.keys(run.data[0] ?? {}).map((key) => ({ key, kind: 'dimension', type: '' }));
}

/** The chart reads its fields by their labels, so its legend and captions name them in words; by ids when two labels are alike. */
function chartInWords(visualization: Visualization, columns: string[], rows: Row[], labelOf: (id: string) => string) {
  const labels = columns.map(labelOf);
  if (new Set(labels).size !== labels.length) return { visualization, columns, rows };
  const named = (id: string | undefined) => (id === undefined ? undefined : labelOf(id));
  return {
    visualization: { ...visualization, ...(visualization.x ? { x: named(visualization.x) } : {}), ...(visualization.y ? { y: visualization.y.map(labelOf) } : {}), ...(visualization.series ? { series: named(visualization.series) } : {}) },
    columns: labels,
    rows: rows.map((row) => Object.fromEntries(columns.map((c, i) => [labels[i]!, row[c]]))),
  };
}

interface RunViewProps {
  run: SceneRun;
  title: string;
  visualization: Visualization;
  height?: number;
  node?: string | undefined;
  fields?: NodeFields | undefined;
  /** False where a heading already names the scene (a mosaic tile): the chart does not say it again. */
  showTitle?: boolean;
  /** The rows the grid shows before it scrolls. */
  viewRows?: number;
  /** True where room is short (a mosaic tile): a number whose figure is the whole answer (one row, one value) gets no grid repeating it. */
  figureAlone?: boolean;
}

export function RunView({ run, title, visualization, height = 180, node, fields, showTitle = true, viewRows, figureAlone = false }: RunViewProps) {
  const own = node ? fields?.get(node) : undefined;
  const measures = own?.measures ?? [];
  const labelOf = (id: string) => dimensionLabel(id, own?.dimensions ?? []) ?? measures.find((m) => m.id === id)?.label ?? id;
  const columns = describedColumns(run);
  const hintsOf = (c: ResultColumn) => (c.kind === 'dimension' ? undefined : measures.find((m) => m.id === (c.measure ?? c.key)));
  const keys = columns.map((c) => c.key);
  const xKey = visualization.x ?? columns.find((c) => c.kind === 'dimension')?.key;
  const xColumn = columns.find((c) => c.key === xKey);
  const yColumn = columns.find((c) => c.key === (visualization.y?.[0] ?? columns.find((m) => m.kind === 'measure')?.key));
  const yHints = yColumn ? hintsOf(yColumn) : undefined;
  const chart = chartInWords(visualization, keys, run.data, labelOf);
  const gridless = figureAlone && visualization.type === 'number' && run.data.length === 1 && columns.length === 1;
  return (
    <div>
      <SceneChart visualization={chart.visualization} columns={chart.columns} rows={chart.rows} title={title} height={height}
        formatX={xColumn ? (v) => cellOf(xColumn, v, hintsOf(xColumn)).text : undefined}
        formatY={yHints ? (n) => formatMeasure(n, yHints, true) : undefined}
        formatValue={yHints ? (n) => formatMeasure(n, yHints) : undefined}
        xName={xKey ? labelOf(xKey) : undefined} showTitle={showTitle} />
      {gridless ? null : (
        <DataGrid label={`${title} rows`} rows={run.data} {...(viewRows !== undefined ? { viewRows } : {})}
          columns={columns.map((c) => ({ name: c.key, label: columnLabel(c, labelOf), cell: (v: unknown) => cellOf(c, v, hintsOf(c)), numeric: c.kind !== 'dimension' && c.kind !== 'partial' }))} />
      )}
    </div>
  );
}
