// The filter rows of a query (Explore, the CML builder): a field, a "Not" toggle, an operator by its
// readable name (only those the server applies to the field: the compiler's own list), and a value
// when the operator takes one. A negated filter says in words what it keeps, rows without a value
// included, as the server applies it.
import { OPERATOR_VALUES, operatorsFor, type FilterOperator } from '../../../src/core/semantic/filter-operators';
import { ErrorBox } from './feedback';
import { Checkbox, SelectField, TextField } from './field';
import { describeFilter, keepsMissing, negatable, OPERATOR_LABELS, type QueryFilter } from './operator-labels';

export interface FieldInfo { id: string; label: string; type: string }
export interface Fields { dimensions: FieldInfo[]; measures: FieldInfo[] }
export interface FilterRow { field: string; operator: FilterOperator; value: string; not: boolean }

export const NEW_FILTER: FilterRow = { field: '', operator: 'equals', value: '', not: false };

const VALUE_HINTS: Record<(typeof OPERATOR_VALUES)[FilterOperator], string> = {
  none: '',
  one: 'One value',
  list: 'Several values: separate with commas',
  two: 'From and to, separated by a comma',
  period: 'A period such as 7 days or 3 months',
  unit: 'day, week, month, quarter or year',
};

/** The field's filter target: a measure, or a dimension of its type (a granularity of a time is a timestamp). */
function targetOf(fieldId: string, fields: Fields | undefined) {
  if (fields?.measures.some((m) => m.id === fieldId)) return { kind: 'measure' as const };
  return { kind: 'dimension' as const, type: fields?.dimensions.find((d) => d.id === fieldId)?.type ?? 'string' };
}

/** The typed value of a filter: numbers and booleans as such, a list split at commas; none for isNull. */
function filterValue(text: string, operator: FilterOperator, type: string): unknown {
  const shape = OPERATOR_VALUES[operator];
  if (shape === 'none' || text === '') return undefined;
  if (shape === 'period' || shape === 'unit') return text.trim();
  const typed = text.split(',').map((s) => s.trim()).map((p): string | number | boolean => {
    if (type === 'boolean' && (p === 'true' || p === 'false')) return p === 'true';
    return type !== 'string' && p !== '' && !Number.isNaN(Number(p)) ? Number(p) : p;
  });
  return shape === 'one' || typed.length === 1 ? typed[0] : typed;
}

function queryFilter(row: FilterRow, fields: Fields | undefined): QueryFilter {
  const target = targetOf(row.field, fields);
  const value = filterValue(row.value, row.operator, target.kind === 'measure' ? 'number' : target.type);
  return negatable({ field: row.field, operator: row.operator, ...(value !== undefined ? { value } : {}) }, row.not);
}

/** The filters as the query takes them (rows without a field are left out). */
export function filtersForQuery(rows: FilterRow[], fields: Fields | undefined): QueryFilter[] {
  return rows.filter((f) => f.field).map((f) => queryFilter(f, fields));
}

interface Props {
  rows: FilterRow[];
  onChange: (rows: FilterRow[]) => void;
  fields: Fields | undefined;
  /** The server's refusal of a filter, shown beside the filters. */
  error?: unknown;
}

export function FilterEditor({ rows, onChange, fields, error }: Props) {
  const all = [...(fields?.dimensions ?? []), ...(fields?.measures ?? [])];
  const labelOf = (id: string) => all.find((f) => f.id === id)?.label ?? id;
  return (
    <div class="filters">
      <h3>Filters</h3>
      {rows.map((f, i) => {
        const offered = operatorsFor(targetOf(f.field, fields));
        const change = (patch: Partial<FilterRow>) => onChange(rows.map((g, j) => (j === i ? { ...g, ...patch } : g)));
        const sent = f.field ? queryFilter(f, fields) : undefined;
        return (
          <div key={i} class="filter" role="group" aria-label={`Filter ${i + 1}`}>
            <div class="row">
              <SelectField label="Field" value={f.field} options={[{ value: '', label: '—' }, ...all.map((x) => ({ value: x.id, label: x.label }))]}
                onChange={(v) => {
                  // An operator the new field does not take is replaced by the first one it does.
                  const operators = operatorsFor(targetOf(v, fields));
                  change({ field: v, operator: operators.includes(f.operator) ? f.operator : operators[0]! });
                }} />
              <Checkbox label="Not" checked={f.not} onChange={(on) => change({ not: on })} />
              <SelectField label="Operator" value={f.operator} options={offered.map((op) => ({ value: op, label: OPERATOR_LABELS[op] }))} onChange={(v) => change({ operator: v as FilterOperator })} />
              {OPERATOR_VALUES[f.operator] === 'none' ? null : (
                <TextField label="Value" value={f.value} hint={VALUE_HINTS[OPERATOR_VALUES[f.operator]]} onInput={(v) => change({ value: v })} />
              )}
              <button type="button" onClick={() => onChange(rows.filter((_, j) => j !== i))}>Remove filter</button>
            </div>
            {sent && (f.not || keepsMissing(sent)) ? (
              <p class="muted filter-says" role="note">
                Keeps the rows where {describeFilter(sent, labelOf(f.field), f.value.trim())}
                {keepsMissing(sent) ? `, and those where ${labelOf(f.field)} has no value` : ''}.
              </p>
            ) : null}
          </div>
        );
      })}
      <ErrorBox error={error} />
      <button type="button" onClick={() => onChange([...rows, NEW_FILTER])}>Add filter</button>
    </div>
  );
}
