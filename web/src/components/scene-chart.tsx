// A result drawn as a scene's saved visualization (see chart-plan.ts): uPlot for bars, lines, areas and
// points, an SVG pie, a number as the figure itself, nothing beyond the table for a table. When the
// data could not be drawn as the saved type, the note beside the chart says what was drawn instead.
import { Chart } from './chart';
import { planChart, type Visualization } from './chart-plan';
import { PieChart } from './pie-chart';

const figure = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });

interface Props {
  visualization: Visualization;
  columns: string[];
  rows: Array<Record<string, unknown>>;
  title: string;
  height?: number;
  /** The series' colours in order (bars, lines, areas, points), when they mean something. */
  colors?: string[];
  /** How a value of x and a value are written (the grid's formatter), else as they come. */
  formatX?: ((value: string | number | null) => string) | undefined;
  formatY?: ((value: number) => string) | undefined;
  formatValue?: ((value: number) => string) | undefined;
  xName?: string | undefined;
  /** False where a heading beside the chart already names it (a mosaic tile). */
  showTitle?: boolean;
}

export function SceneChart({ visualization, columns, rows, title, height, colors, formatX, formatY, formatValue, xName, showTitle = true }: Props) {
  const plan = planChart(visualization, columns, rows, formatX ? (v) => (v === null || v === undefined ? '∅' : formatX(typeof v === 'number' ? v : String(v))) : undefined);
  const note = plan.note ? <p class="muted" role="note">{plan.note}</p> : null;
  switch (plan.draw) {
    case 'none':
      return note;
    case 'number':
      return (
        <>
          <figure class="number" aria-label={`Chart: ${title}`} data-chart-type="number">
            <span class="headline">{plan.value === null ? '∅' : (formatValue ?? ((n: number) => figure.format(n)))(plan.value)}</span>
            <figcaption class="muted">{plan.label}</figcaption>
          </figure>
          {note}
        </>
      );
    case 'pie':
      return (
        <>
          <PieChart title={title} measure={plan.measure} slices={plan.slices} showTitle={showTitle} />
          {note}
        </>
      );
    default:
      return (
        <>
          <Chart data={plan.data} title={title} kind={plan.draw} {...(height ? { height } : {})} {...(colors ? { colors } : {})} formatX={formatX} formatY={formatY} formatValue={formatValue} xName={xName} showTitle={showTitle} />
          {note}
        </>
      );
  }
}
