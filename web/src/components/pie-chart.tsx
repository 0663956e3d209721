// A pie of one measure over a dimension's values, in SVG: uPlot draws axes, not pies. Each slice is a
// path named by its label, value and share (a <title>, and the legend beside it). Colours are SVG
// attributes, not style attributes, so the page's strict Content-Security-Policy allows them.
import type { Slice } from './chart-plan';
import { COLORS } from './chart';

const R = 90;
const C = 100;
const share = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 });
const figure = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });

function point(turn: number): string {
  const angle = 2 * Math.PI * turn - Math.PI / 2; // from twelve o'clock, clockwise
  return `${(C + R * Math.cos(angle)).toFixed(3)} ${(C + R * Math.sin(angle)).toFixed(3)}`;
}

/** The path of a slice from `from` to `to` (fractions of the whole turn). */
function slicePath(from: number, to: number): string {
  const large = to - from > 0.5 ? 1 : 0;
  return `M ${C} ${C} L ${point(from)} A ${R} ${R} 0 ${large} 1 ${point(to)} Z`;
}

/** `showTitle` false: a heading beside it names the chart already, the caption names only the measure. */
export function PieChart({ title, measure, slices, showTitle = true }: { title: string; measure: string; slices: Slice[]; showTitle?: boolean }) {
  const total = slices.reduce((sum, s) => sum + s.value, 0);
  let turn = 0;
  const shapes = slices.map((s, i) => {
    const from = turn;
    turn += s.value / total;
    return { ...s, from, to: turn, color: COLORS[i % COLORS.length]!, text: `${s.label}: ${figure.format(s.value)} (${share.format(s.value / total)})` };
  });
  return (
    <figure class="chart pie" aria-label={`Chart: ${title}`} data-chart-type="pie">
      <figcaption>{!showTitle ? measure : title.includes(measure) ? title : `${title}: ${measure}`}</figcaption>
      <div class="pie-body">
        <svg viewBox="0 0 200 200" width="200" height="200" role="img" aria-label={`${measure} by share`}>
          {shapes.map((s) =>
            // A slice of the whole turn is a circle: an arc cannot start and end at one point.
            s.to - s.from >= 1 - 1e-9 ? (
              <circle key={s.label} data-slice cx={C} cy={C} r={R} fill={s.color}><title>{s.text}</title></circle>
            ) : s.to > s.from ? (
              <path key={s.label} data-slice d={slicePath(s.from, s.to)} fill={s.color} stroke="#fff" stroke-width="1"><title>{s.text}</title></path>
            ) : null,
          )}
        </svg>
        <ul class="legend">
          {shapes.map((s) => (
            <li key={s.label}>
              <svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" fill={s.color} /></svg> {s.text}
            </li>
          ))}
        </ul>
      </div>
    </figure>
  );
}
