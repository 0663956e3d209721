// A scene's run drawn as its saved chart type (scene-chart.tsx), with its rows in a grid beneath.
import type { Visualization } from '../../components/chart-plan';
import { DataGrid } from '../../components/data-grid';
import { SceneChart } from '../../components/scene-chart';
import type { SceneRun } from './content-types';

export function RunView({ run, title, visualization, height = 180 }: { run: SceneRun; title: string; visualization: Visualization; height?: number }) {
  const columns = run.data[0] ? Object.keys(run.data[0]) : [];
  return (
    <div>
      <SceneChart visualization={visualization} columns={columns} rows={run.data} title={title} height={height} />
      <DataGrid label={`${title} rows`} columns={columns.map((name) => ({ name }))} rows={run.data} />
    </div>
  );
}
