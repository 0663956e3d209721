// The order and the number of a query's rows: sort by one or more of the chosen dimensions or measures,
// each ascending or descending, the first deciding and each next one breaking its ties (the query's
// `sorts`, in that order), and a row limit (`limit`). Without a sort the server's own order holds: the
// first time dimension ascending, else the first measure descending.
import { SelectField, TextField } from './field';

export interface SortRow { field: string; direction: 'asc' | 'desc' }
export interface SortLimitState { sorts: SortRow[]; limit: string }
/** One row of "Default order": the list starts where a single sort used to be. */
export const NO_SORT: SortLimitState = { sorts: [{ field: '', direction: 'desc' }], limit: '' };

/** The rows a query asks for when no limit is typed (the server's own default is 5,000). */
export const DEFAULT_LIMIT = 1000;
export const MAX_LIMIT = 50_000;
/** The server takes at most this many sorts. */
export const MAX_SORTS = 20;

/**
 * The query's `sorts` (rows without a field, by a field no longer chosen, or repeating an earlier row's
 * field are dropped) and `limit`, undefined when typed wrong.
 */
export function sortLimitForQuery(state: SortLimitState, chosen: string[]): { sorts?: SortRow[]; limit?: number; problem?: string } {
  const kept = state.sorts.filter((s, i) => s.field && chosen.includes(s.field) && state.sorts.findIndex((o) => o.field === s.field) === i);
  const sorts = kept.length ? { sorts: kept.map((s) => ({ field: s.field, direction: s.direction })) } : {};
  const text = state.limit.trim();
  if (text === '') return sorts;
  const limit = Number(text);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) return { ...sorts, problem: `A row limit is a whole number from 1 to ${MAX_LIMIT.toLocaleString('en')}.` };
  return { ...sorts, limit };
}

interface Props {
  state: SortLimitState;
  onChange: (state: SortLimitState) => void;
  /** The chosen dimensions and measures, by id with their labels. */
  fields: Array<{ id: string; label: string }>;
  problem?: string | undefined;
}

export function SortLimitControls({ state, onChange, fields, problem }: Props) {
  const rows = state.sorts.length ? state.sorts : NO_SORT.sorts;
  const setRow = (i: number, row: SortRow) => onChange({ ...state, sorts: rows.map((r, j) => (j === i ? row : r)) });
  const removeRow = (i: number) => onChange({ ...state, sorts: rows.filter((_, j) => j !== i) });
  const addRow = () => onChange({ ...state, sorts: [...rows, { field: '', direction: 'desc' }] });
  // A field already sorted by in another row is not offered again: a second sort by it changes nothing.
  const taken = (i: number) => new Set(rows.filter((_, j) => j !== i).map((r) => r.field));
  return (
    <fieldset aria-label="Sort and limit">
      <legend>Sort and limit</legend>
      <ol class="plain sort-rows">
        {rows.map((row, i) => {
          const field = fields.some((f) => f.id === row.field) ? row.field : '';
          const options = fields.filter((f) => f.id === field || !taken(i).has(f.id));
          return (
            // The group sits inside the item: a role on the <li> itself would take it out of the list.
            <li key={i}>
              <div class="row" role="group" aria-label={`Sort ${i + 1}`}>
              <SelectField label={i === 0 ? 'Sort by' : 'Then by'} value={field} options={[{ value: '', label: i === 0 ? 'Default order' : '—' }, ...options.map((f) => ({ value: f.id, label: f.label }))]}
                onChange={(v) => setRow(i, { ...row, field: v })} />
              {field ? (
                <SelectField label="Direction" value={row.direction} options={[{ value: 'desc', label: 'Descending' }, { value: 'asc', label: 'Ascending' }]}
                  onChange={(v) => setRow(i, { ...row, direction: v === 'asc' ? 'asc' : 'desc' })} />
              ) : null}
              {rows.length > 1 ? <button type="button" onClick={() => removeRow(i)} aria-label={`Remove sort ${i + 1}`}>Remove</button> : null}
              </div>
            </li>
          );
        })}
      </ol>
      <div class="row">
        <button type="button" onClick={addRow} disabled={rows.length >= MAX_SORTS || fields.length <= rows.length}>Add sort field</button>
        <TextField label="Row limit" type="number" value={state.limit} placeholder={String(DEFAULT_LIMIT)} onInput={(v) => onChange({ ...state, limit: v })} />
      </div>
      {problem ? <div class="error" role="alert">{problem}</div> : null}
    </fieldset>
  );
}
