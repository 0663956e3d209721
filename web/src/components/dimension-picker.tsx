// The dimensions of a query: one checkbox per dimension, and for a date or timestamp a granularity
// (by month unless another is chosen, or the exact time), which makes its id `created_at.month` (a
// joined node's: `customers.signup_at.month`).
import { Checkbox, SelectField } from './field';
import type { FieldInfo } from './filter-editor';
import { grainOf } from './result-format';

/** The granularities offered: those a person charts by (the server takes second, minute and hour too). */
const GRAINS = ['day', 'week', 'month', 'quarter', 'year'] as const;
export const isTimeType = (type: string | undefined) => type === 'date' || type === 'timestamp';

/** The dimension's id without its granularity: `customers.signup_at.month` → `customers.signup_at`. */
export function withoutGrain(id: string): string {
  const grain = grainOf(id);
  return grain ? id.slice(0, -grain.length - 1) : id;
}

/** `created_at.month` as "Ordered at (month)", given the dimension's own label. */
export function dimensionLabel(id: string, dimensions: FieldInfo[]): string | undefined {
  const exact = dimensions.find((d) => d.id === id);
  if (exact) return exact.label;
  const field = dimensions.find((d) => d.id === withoutGrain(id));
  return field ? `${field.label} (${grainOf(id)})` : undefined;
}

interface Props {
  dimensions: FieldInfo[];
  chosen: string[];
  onChange: (chosen: string[]) => void;
  legend?: string;
}

export function DimensionPicker({ dimensions, chosen, onChange, legend = 'Dimensions' }: Props) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {dimensions.map((f) => {
        const current = chosen.find((id) => id === f.id || (id !== f.id && withoutGrain(id) === f.id));
        const time = isTimeType(f.type);
        return (
          <div key={f.id} class="dimension">
            <Checkbox label={f.label} checked={current !== undefined}
              onChange={(on) => onChange(on ? [...chosen, time ? `${f.id}.month` : f.id] : chosen.filter((id) => id !== current))} />
            {time && current !== undefined ? (
              <SelectField label={`Group ${f.label} by`} value={current === f.id ? '' : current.slice(f.id.length + 1)}
                options={[...GRAINS.map((g) => ({ value: g, label: g })), { value: '', label: 'exact time' }]}
                onChange={(g) => onChange(chosen.map((id) => (id === current ? (g ? `${f.id}.${g}` : f.id) : id)))} />
            ) : null}
          </div>
        );
      })}
    </fieldset>
  );
}
