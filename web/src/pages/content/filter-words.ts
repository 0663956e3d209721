// Saved filters in words, as the server applies them: "Region is one of north, south", "not (channel
// is web)", "Ordered at is in the date range 2024-01-01 to 2024-03-31". Groups read as "either … or …"
// and "… and …". Field labels come from the model when known, else the field id is said as it is.
import { OPERATOR_LABELS } from '../../components/operator-labels.js';
import type { FilterOperator } from '../../../../src/core/semantic/filter-operators.js';
import type { SavedFilter } from './content-types.js';

export type LabelOf = (fieldId: string) => string;

function valueWords(operator: string, value: unknown): string {
  if (value === undefined) return '';
  if (Array.isArray(value)) {
    const parts = value.map((v) => (v === null ? 'no value' : String(v)));
    return operator === 'between' || operator === 'notBetween' || operator === 'inDateRange' || operator === 'notInDateRange' ? parts.join(' to ') : parts.join(', ');
  }
  return value === null ? 'no value' : String(value);
}

/** One filter (or group) in words. */
export function filterInWords(filter: SavedFilter, labelOf: LabelOf = (id) => id): string {
  if ('and' in filter) return filter.and.map((f) => filterInWords(f, labelOf)).join(' and ');
  if ('or' in filter) return `either ${filter.or.map((f) => filterInWords(f, labelOf)).join(' or ')}`;
  if ('not' in filter) return `not (${filterInWords(filter.not, labelOf)})`;
  const said = OPERATOR_LABELS[filter.operator as FilterOperator] ?? filter.operator;
  const value = valueWords(filter.operator, filter.value);
  return `${labelOf(filter.field)} ${said}${value ? ` ${value}` : ''}`;
}
