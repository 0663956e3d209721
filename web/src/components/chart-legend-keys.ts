// uPlot's legend hides or shows a series when its name is clicked, and offers nothing to a keyboard or a
// screen reader. Each series' name becomes a toggle button: reached by Tab, pressed with Enter or Space
// (which click it, so uPlot's own handler does the toggling), and saying whether the series is shown.
import type uPlot from 'uplot';

export function legendKeys(plot: uPlot): void {
  const rows = [...plot.root.querySelectorAll<HTMLTableRowElement>('.u-legend tr.u-series')];
  // The x row comes first when the legend shows it; it toggles nothing.
  const first = plot.series.length - rows.length;
  rows.forEach((row, r) => {
    const index = r + first;
    const label = row.querySelector('th');
    if (index === 0 || !label) return;
    const pressed = () => label.setAttribute('aria-pressed', String(plot.series[index]?.show !== false));
    label.tabIndex = 0;
    label.setAttribute('role', 'button');
    pressed();
    label.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' && event.key !== ' ') return;
      event.preventDefault();
      label.click();
    });
    // After uPlot's own click handler, added before this one.
    label.addEventListener('click', pressed);
  });
}
