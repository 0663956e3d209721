// A mosaic's dashboard filters: each said in words with the tiles it reaches (the server applies a
// filter to every scene tile whose node has its field; the others ignore it). In the editor, a date
// range (inDateRange from–to on a date or time field) and dimension values (in: one of the values) are
// added, and any filter removed; they are saved with the mosaic and applied on every run. The same
// editor narrows an open mosaic for the one viewing it: those filters go with the run only, unsaved.
import { useState } from 'preact/hooks';
import { SelectField, TextField } from '../../components/field';
import type { MosaicFilter, MosaicTile } from './content-types';
import { filterInWords } from './filter-words';
import { fieldLabel, sharedDimensions, tilesReached, type NodeFields } from './mosaic-fields';

const tileName = (t: MosaicTile) => t.scene?.name ?? t.id;

function reachWords(filter: MosaicFilter, tiles: readonly MosaicTile[], fields: NodeFields | undefined): string {
  const reached = tilesReached(filter, tiles, fields);
  return reached.length ? `applies to ${reached.map(tileName).join(', ')}` : 'applies to no tile: none has this field';
}

interface ListProps { filters: MosaicFilter[]; tiles: readonly MosaicTile[]; fields: NodeFields | undefined; onRemove?: (index: number) => void; label?: string; empty?: string }

export function MosaicFilterList({ filters, tiles, fields, onRemove, label = 'Dashboard filters', empty = 'No dashboard filters: every tile shows all its rows.' }: ListProps) {
  if (filters.length === 0) return <p class="muted">{empty}</p>;
  return (
    <ul class="plain" aria-label={label}>
      {filters.map((f, i) => {
        const said = filterInWords(f, (id) => fieldLabel(fields, id));
        return (
          <li key={i}>
            <strong>{said}</strong> <span class="muted">({reachWords(f, tiles, fields)})</span>{' '}
            {onRemove ? <button type="button" onClick={() => onRemove(i)} aria-label={`Remove filter ${said}`}>Remove</button> : null}
          </li>
        );
      })}
    </ul>
  );
}

const isTime = (type: string) => type === 'date' || type === 'timestamp';

interface EditorProps {
  filters: MosaicFilter[];
  onChange: (filters: MosaicFilter[]) => void;
  tiles: readonly MosaicTile[];
  fields: NodeFields | undefined;
  /** The fieldset's legend and the list's name: the saved filters by default. */
  label?: string;
  empty?: string;
}

export function MosaicFilterEditor({ filters, onChange, tiles, fields, label = 'Dashboard filters', empty }: EditorProps) {
  const dimensions = sharedDimensions(fields);
  const times = dimensions.filter((d) => isTime(d.type));
  const texts = dimensions.filter((d) => !isTime(d.type));
  const [timeField, setTimeField] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [valueField, setValueField] = useState('');
  const [values, setValues] = useState('');
  const chosenTime = timeField || times[0]?.id || '';
  const chosenValue = valueField || texts[0]?.id || '';
  const add = (filter: MosaicFilter) => onChange([...filters, filter]);
  return (
    <fieldset>
      <legend>{label}</legend>
      <MosaicFilterList filters={filters} tiles={tiles} fields={fields} label={label} {...(empty ? { empty } : {})} onRemove={(i) => onChange(filters.filter((_, j) => j !== i))} />
      {times.length ? (
        <div class="row" role="group" aria-label={`Date range (${label})`}>
          <SelectField label="Date field" value={chosenTime} options={times.map((d) => ({ value: d.id, label: d.label }))} onChange={setTimeField} />
          <TextField label="From" type="date" value={from} onInput={setFrom} />
          <TextField label="To" type="date" value={to} onInput={setTo} />
          <button type="button" disabled={!from || !to} onClick={() => { add({ field: chosenTime, operator: 'inDateRange', value: [from, to] }); setFrom(''); setTo(''); }}>Add date range</button>
        </div>
      ) : null}
      {texts.length ? (
        <div class="row" role="group" aria-label={`Dimension values (${label})`}>
          <SelectField label="Dimension" value={chosenValue} options={texts.map((d) => ({ value: d.id, label: d.label }))} onChange={setValueField} />
          <TextField label="Values" value={values} onInput={setValues} hint="One or more, separated by commas" />
          <button type="button" disabled={!values.trim()} onClick={() => {
            const list = values.split(',').map((v) => v.trim()).filter(Boolean);
            const type = dimensions.find((d) => d.id === chosenValue)?.type;
            add({ field: chosenValue, operator: 'in', value: type === 'number' ? list.map(Number) : list });
            setValues('');
          }}>Add values filter</button>
        </div>
      ) : null}
      {!times.length && !texts.length ? <p class="muted">Add a scene tile to filter by its fields.</p> : null}
    </fieldset>
  );
}
