// The order and the number of a query's rows: sort by one of the chosen dimensions or measures,
// ascending or descending (the query's `sorts`), and a row limit (`limit`). Without a sort the server's
// own order holds: the first time dimension ascending, else the first measure descending.
import { SelectField, TextField } from './field';

export interface SortLimitState { field: string; direction: 'asc' | 'desc'; limit: string }
export const NO_SORT: SortLimitState = { field: '', direction: 'desc', limit: '' };

/** The rows a query asks for when no limit is typed (the server's own default is 5,000). */
export const DEFAULT_LIMIT = 1000;
export const MAX_LIMIT = 50_000;

/** The query's `sorts` and `limit`; a sort by a field no longer chosen is dropped. `limit` is undefined when typed wrong. */
export function sortLimitForQuery(state: SortLimitState, chosen: string[]): { sorts?: Array<{ field: string; direction: 'asc' | 'desc' }>; limit?: number; problem?: string } {
  const sorts = state.field && chosen.includes(state.field) ? [{ field: state.field, direction: state.direction }] : undefined;
  const text = state.limit.trim();
  if (text === '') return { ...(sorts ? { sorts } : {}) };
  const limit = Number(text);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) return { ...(sorts ? { sorts } : {}), problem: `A row limit is a whole number from 1 to ${MAX_LIMIT.toLocaleString('en')}.` };
  return { ...(sorts ? { sorts } : {}), limit };
}

interface Props {
  state: SortLimitState;
  onChange: (state: SortLimitState) => void;
  /** The chosen dimensions and measures, by id with their labels. */
  fields: Array<{ id: string; label: string }>;
  problem?: string | undefined;
}

export function SortLimitControls({ state, onChange, fields, problem }: Props) {
  const field = fields.some((f) => f.id === state.field) ? state.field : '';
  return (
    <fieldset class="row" aria-label="Sort and limit">
      <legend>Sort and limit</legend>
      <SelectField label="Sort by" value={field} options={[{ value: '', label: 'Default order' }, ...fields.map((f) => ({ value: f.id, label: f.label }))]} onChange={(v) => onChange({ ...state, field: v })} />
      {field ? (
        <SelectField label="Direction" value={state.direction} options={[{ value: 'desc', label: 'Descending' }, { value: 'asc', label: 'Ascending' }]}
          onChange={(v) => onChange({ ...state, direction: v === 'asc' ? 'asc' : 'desc' })} />
      ) : null}
      <TextField label="Row limit" type="number" value={state.limit} placeholder={String(DEFAULT_LIMIT)} onInput={(v) => onChange({ ...state, limit: v })} />
      {problem ? <div class="error" role="alert">{problem}</div> : null}
    </fieldset>
  );
}
