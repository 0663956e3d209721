// "Compare to": a time dimension, the current period (a calendar preset in the workspace's time zone,
// or a custom range of days) and what it is compared with (the period before, or the same period a
// year before). It becomes the query's `compare` (docs/queries.md, "Comparisons over time").
import { get } from '../api';
import { ErrorBox } from './feedback';
import { Checkbox, SelectField, TextField } from './field';
import type { FieldInfo } from './filter-editor';
import { customRange, PERIOD_PRESETS, presetRange, PRESET_LABELS, rangeText, type PeriodPreset } from './period-presets';
import { useLoad } from './use-load';

export type CompareTo = 'previous_period' | 'previous_year';
export interface CompareState { on: boolean; dimension: string; preset: PeriodPreset; first: string; last: string; to: CompareTo }
export interface CompareSpec { dimension: string; range: [string, string]; to: CompareTo }

export const NO_COMPARE: CompareState = { on: false, dimension: '', preset: 'last_month', first: '', last: '', to: 'previous_period' };

const TO_LABELS: Record<CompareTo, string> = { previous_period: 'Previous period', previous_year: 'Same period last year' };

/** The workspace's time zone (GET /api/workspace), where the presets' months begin; UTC until it is known. */
export function useWorkspaceZone(): string {
  const workspace = useLoad(() => get<{ workspace: { timezone: string } }>('/api/workspace'));
  return workspace.data?.workspace.timezone ?? 'UTC';
}

/** The query's `compare`, or why the controls do not make one yet. */
export function compareForQuery(state: CompareState, timeZone: string, now: Date): { compare?: CompareSpec; problem?: string } {
  if (!state.on) return {};
  if (!state.dimension) return { problem: 'Choose the time dimension to compare on.' };
  const range = state.preset === 'custom' ? customRange(state.first, state.last) : presetRange(state.preset, now, timeZone);
  if (typeof range === 'string') return { problem: range };
  return { compare: { dimension: state.dimension, range, to: state.to } };
}

interface Props {
  state: CompareState;
  onChange: (state: CompareState) => void;
  timeDimensions: FieldInfo[];
  timeZone: string;
  now: () => Date;
  error?: unknown;
}

export function CompareControls({ state, onChange, timeDimensions, timeZone, now, error }: Props) {
  const set = (patch: Partial<CompareState>) => onChange({ ...state, ...patch });
  const { compare, problem } = compareForQuery(state, timeZone, now());
  return (
    <fieldset class="compare" aria-label="Compare to">
      <legend>Compare to</legend>
      <Checkbox label="Compare with another period" checked={state.on}
        onChange={(on) => set({ on, dimension: state.dimension || timeDimensions[0]?.id || '' })} />
      {state.on ? (
        <>
          {timeDimensions.length === 0 ? <p class="muted">This node has no date or timestamp dimension to compare on.</p> : null}
          <div class="row">
            <SelectField label="Time dimension" value={state.dimension} options={[{ value: '', label: '—' }, ...timeDimensions.map((d) => ({ value: d.id, label: d.label }))]} onChange={(v) => set({ dimension: v })} />
            <SelectField label="Current period" value={state.preset} options={PERIOD_PRESETS.map((p) => ({ value: p, label: PRESET_LABELS[p] }))} onChange={(v) => set({ preset: v as PeriodPreset })} />
            {state.preset === 'custom' ? (
              <>
                <TextField label="First day" type="date" value={state.first} onInput={(v) => set({ first: v })} />
                <TextField label="Last day" type="date" value={state.last} onInput={(v) => set({ last: v })} />
              </>
            ) : null}
            <SelectField label="Compared with" value={state.to} options={(Object.keys(TO_LABELS) as CompareTo[]).map((t) => ({ value: t, label: TO_LABELS[t] }))} onChange={(v) => set({ to: v as CompareTo })} />
          </div>
          {compare ? <p class="muted">Current period: {rangeText(compare.range)} ({timeZone})</p> : <p class="muted">{problem}</p>}
        </>
      ) : null}
      <ErrorBox error={error} />
    </fieldset>
  );
}
