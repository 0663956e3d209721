// A results grid that stays fast with 10,000 rows: only the rows in view (plus a margin) are in the DOM,
// between two spacers that keep the scroll height right. Rows have a fixed height, so the slice is
// plain arithmetic on scrollTop. A column may name its header in words and format its cells (a tone
// class colours a cell; its text must say the same thing without the colour). A sortable grid sorts by
// a column on a header click (ascending, descending, off; see grid-sort.ts): the rows given stay as
// they are, the grid shows them in the order chosen.
import { useMemo, useState } from 'preact/hooks';
import { nextSort, sortRows, type GridSort } from './grid-sort';

const ROW_HEIGHT = 28;
const VIEW_HEIGHT = 420;
const MARGIN = 10;
/** The rows shown before the grid scrolls, unless told otherwise. */
const VIEW_ROWS = VIEW_HEIGHT / ROW_HEIGHT;

/** The grid's height with `rows` rows in view: the header, the rows and the border (a header of one line). */
export function gridHeight(rows: number): number {
  return (rows + 1) * ROW_HEIGHT + 2;
}

export interface GridColumn {
  name: string;
  type?: string;
  /** The header shown instead of the name (the name stays in its tooltip). */
  label?: string;
  cell?: (value: unknown) => { text: string; tone?: string; title?: string };
  /** Figures are aligned on the right, so that their digits line up. */
  numeric?: boolean;
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '∅';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

type GridRow = Record<string, unknown> | unknown[];

/** `viewRows`: how many rows are shown before the grid scrolls; up to that many it shows them whole, its height theirs. */
export function DataGrid({ columns, rows: given, label, sortable = false, viewRows = VIEW_ROWS }: { columns: GridColumn[]; rows: GridRow[]; label: string; sortable?: boolean; viewRows?: number }) {
  const [scrollTop, setScrollTop] = useState(0);
  const [sort, setSort] = useState<GridSort>();
  const sortIndex = sort ? columns.findIndex((c) => c.name === sort.column) : -1;
  const rows = useMemo(
    () => (sort && sortIndex >= 0 ? sortRows(given, (row) => (Array.isArray(row) ? row[sortIndex] : row[sort.column]), columns[sortIndex]!.type, sort.direction) : given),
    [given, sort, sortIndex, columns],
  );
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - MARGIN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + VIEW_HEIGHT) / ROW_HEIGHT) + MARGIN);
  const valueAt = (row: Record<string, unknown> | unknown[], index: number) =>
    Array.isArray(row) ? row[index] : (row as Record<string, unknown>)[columns[index]!.name];
  const template = `repeat(${Math.max(columns.length, 1)}, minmax(8rem, 1fr))`;
  return (
    <div class="grid" role="table" aria-label={label} aria-rowcount={rows.length + 1} tabIndex={0}
      style={{ maxHeight: rows.length > viewRows ? `${gridHeight(viewRows)}px` : 'none' }}
      onScroll={(e) => setScrollTop((e.target as HTMLElement).scrollTop)}>
      <div role="rowgroup" class="grid-head">
        <div role="row" aria-rowindex={1} class="grid-row" style={{ gridTemplateColumns: template }}>
          {columns.map((c) => {
            const direction = sort?.column === c.name ? sort.direction : undefined;
            return (
              <div role="columnheader" key={c.name} title={c.label ? c.name : c.type} class={c.numeric ? 'num' : undefined}
                aria-sort={sortable ? (direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none') : undefined}>
                {sortable ? (
                  <button type="button" class="sort-header" onClick={() => setSort(nextSort(sort, c.name))}>
                    {c.label ?? c.name}
                    <span aria-hidden="true">{direction === 'asc' ? ' ▲' : direction === 'desc' ? ' ▼' : ''}</span>
                  </button>
                ) : (c.label ?? c.name)}
              </div>
            );
          })}
        </div>
      </div>
      {/* No rows, no body: an empty row group is a table part without its rows to assistive technology. */}
      {rows.length > 0 ? <div role="rowgroup" style={{ height: `${rows.length * ROW_HEIGHT}px`, position: 'relative' }}>
        {rows.slice(first, last).map((row, i) => (
          <div role="row" key={first + i} aria-rowindex={first + i + 2} class="grid-row"
            style={{ gridTemplateColumns: template, position: 'absolute', top: `${(first + i) * ROW_HEIGHT}px`, left: 0, right: 0, height: `${ROW_HEIGHT}px` }}>
            {columns.map((c, ci) => {
              const value = valueAt(row, ci);
              const { text, tone, title } = c.cell ? c.cell(value) : { text: cellText(value) };
              const classes = [c.numeric ? 'num' : '', tone ? `tone-${tone}` : ''].filter(Boolean).join(' ');
              return <div role="cell" key={c.name} class={classes || undefined} title={title}>{text}</div>;
            })}
          </div>
        ))}
      </div> : null}
    </div>
  );
}
