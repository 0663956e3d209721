// The dimensions of a query: one checkbox per dimension, and for a date or timestamp a granularity
// (by month unless another is chosen, or the exact time), which makes its id `created_at.month`.
import { Checkbox, SelectField } from './field';
import type { FieldInfo } from './filter-editor';

/** The granularities offered: those a person charts by (the server takes second, minute and hour too). */
const GRAINS = ['day', 'week', 'month', 'quarter', 'year'] as const;
export const isTimeType = (type: string | undefined) => type === 'date' || type === 'timestamp';

/** `created_at.month` as "Ordered at (month)", given the dimension's own label. */
export function dimensionLabel(id: string, dimensions: FieldInfo[]): string | undefined {
  const [name, grain] = id.split('.');
  const field = dimensions.find((d) => d.id === id) ?? dimensions.find((d) => d.id === name);
  if (!field) return undefined;
  return field.id === id || !grain ? field.label : `${field.label} (${grain})`;
}

interface Props {
  dimensions: FieldInfo[];
  chosen: string[];
  onChange: (chosen: string[]) => void;
}

export function DimensionPicker({ dimensions, chosen, onChange }: Props) {
  return (
    <fieldset>
      <legend>Dimensions</legend>
      {dimensions.map((f) => {
        const current = chosen.find((id) => id === f.id || id.startsWith(`${f.id}.`));
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
