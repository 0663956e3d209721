// Creating or editing a mosaic in the browser: name, description, vault, tiles (mosaic-tile-controls.tsx),
// dashboard filters (mosaic-filters.tsx) and a preview of the grid as it will be stored. Saving is
// POST /api/mosaics for a new one and PATCH /api/mosaics/:id otherwise (tiles and filters are replaced
// whole); the server checks the layout and the scenes and answers 400 naming a wrong tile, shown here.
import { useState } from 'preact/hooks';
import { api, post } from '../../api';
import { ErrorBox } from '../../components/feedback';
import { SelectField, TextField } from '../../components/field';
import { useAction } from '../../components/use-load';
import type { Mosaic, MosaicFilter, MosaicTile, Scene, Vault } from './content-types';
import { MosaicFilterEditor } from './mosaic-filters';
import { nodesOf, useNodeFields } from './mosaic-fields';
import { MosaicGrid } from './mosaic-grid';
import { readingOrder, savedTile } from './mosaic-layout';
import { TileControls } from './mosaic-tile-controls';

interface Props {
  /** The mosaic to edit; a new one when absent. */
  mosaic?: Mosaic;
  scenes: Scene[];
  vaults: Vault[];
  onSaved: (id: string, message: string) => Promise<void>;
  onCancel: () => void;
}

export function MosaicEditor({ mosaic, scenes, vaults, onSaved, onCancel }: Props) {
  const writable = vaults.filter((v) => v.access !== 'view');
  const [name, setName] = useState(mosaic?.name ?? '');
  const [description, setDescription] = useState(mosaic?.description ?? '');
  const [vault, setVault] = useState(mosaic?.vault ?? writable.find((v) => v.personal)?.id ?? writable[0]?.id ?? '');
  const [tiles, setTiles] = useState<MosaicTile[]>(readingOrder(mosaic?.tiles ?? []));
  const [filters, setFilters] = useState<MosaicFilter[]>(mosaic?.filters ?? []);
  const fields = useNodeFields(nodesOf(tiles));
  const { error, run } = useAction();
  const title = mosaic ? `Edit mosaic ${mosaic.name}` : 'New mosaic';

  const save = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const body = { name, description, tiles: tiles.map(savedTile), filters, ...(vault && vault !== mosaic?.vault ? { vault } : {}) };
      const saved = mosaic
        ? await api<{ mosaic: { id: string } }>('PATCH', `/api/mosaics/${encodeURIComponent(mosaic.id)}`, body)
        : await post<{ mosaic: { id: string } }>('/api/mosaics', body);
      await onSaved(saved.mosaic.id, `Mosaic ${name} saved.`);
    });
  };

  return (
    <form onSubmit={save} aria-label={title} class="mosaic-editor">
      <h3>{title}</h3>
      <div class="row">
        <TextField label="Mosaic name" value={name} onInput={setName} required />
        <TextField label="Mosaic description" value={description} onInput={setDescription} />
        <SelectField label="Mosaic vault" value={vault} options={writable.map((v) => ({ value: v.id, label: v.name }))} onChange={setVault} />
      </div>
      <TileControls tiles={tiles} scenes={scenes} onChange={setTiles} />
      <ErrorBox error={fields.error} />
      <MosaicFilterEditor filters={filters} onChange={setFilters} tiles={tiles} fields={fields.data} />
      <ErrorBox error={error} />
      <div class="row">
        <button type="submit" disabled={!name.trim()}>Save mosaic</button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </div>
      {tiles.length ? (
        <>
          <h4>Preview</h4>
          <MosaicGrid name={`${name || 'new'} preview`} tiles={tiles} outcomes={undefined} running={false} />
        </>
      ) : null}
    </form>
  );
}
