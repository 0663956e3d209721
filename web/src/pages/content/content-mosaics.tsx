// Mosaics on the Content page: the list (Open, Edit, Delete), a New mosaic button, the open mosaic on its
// grid and the editor (mosaic-editor.tsx). Opening reads the mosaic first, so its layout shows at once
// with every scene tile loading, then runs it (POST /api/mosaics/:id/run: recorded as a mosaic run, its
// filters applied by the server, a few tiles at a time); each tile then shows its rows or its own error.
// Anyone viewing it may narrow it with filters of their own, sent with the run and never saved. A link to
// a mosaic (linked-content.ts) opens it, with its entry in view, focused and marked.
import { useEffect, useState } from 'preact/hooks';
import { api, get, post } from '../../api';
import { ConfirmDelete } from '../../components/confirm-delete';
import { ErrorBox, Notice } from '../../components/feedback';
import { Section } from '../../components/field';
import { useAction } from '../../components/use-load';
import { LoadMore, type usePaged } from '../../components/use-paged';
import type { Mosaic, MosaicFilter, MosaicRun, MosaicSummary, Scene, Vault } from './content-types';
import { useJumpOnce } from './linked-content';
import { MosaicEditor } from './mosaic-editor';
import { MosaicFilterEditor, MosaicFilterList } from './mosaic-filters';
import { nodesOf, useNodeFields } from './mosaic-fields';
import { MosaicGrid, type TileOutcome } from './mosaic-grid';

interface Props {
  mosaics: ReturnType<typeof usePaged<MosaicSummary>>;
  scenes: Scene[];
  vaults: Vault[];
  canCreate: boolean;
  /** The mosaic the page's address links to, once read. */
  linked?: Mosaic | undefined;
  /** The sections above have their height: the linked mosaic may be scrolled to. */
  ready: boolean;
}

interface Shown { mosaic: Mosaic; outcomes?: Map<string, TileOutcome>; running: boolean; extra: MosaicFilter[] }

const VIEW_FILTERS = 'Filters for this view';

function OpenMosaic({ shown, onNarrow }: { shown: Shown; onNarrow: (extra: MosaicFilter[]) => void }) {
  const fields = useNodeFields(nodesOf(shown.mosaic.tiles));
  return (
    <div class="open-mosaic">
      <h3>{shown.mosaic.name}</h3>
      {shown.mosaic.description ? <p>{shown.mosaic.description}</p> : null}
      <MosaicFilterList filters={shown.mosaic.filters} tiles={shown.mosaic.tiles} fields={fields.data} />
      <details>
        <summary>Narrow this view (not saved){shown.extra.length ? `: ${shown.extra.length} filter${shown.extra.length === 1 ? '' : 's'}` : ''}</summary>
        <MosaicFilterEditor filters={shown.extra} onChange={onNarrow} tiles={shown.mosaic.tiles} fields={fields.data} label={VIEW_FILTERS} empty="None: the mosaic as saved." />
      </details>
      <MosaicGrid name={shown.mosaic.name} tiles={shown.mosaic.tiles} outcomes={shown.outcomes} running={shown.running} fields={fields.data} filters={[...shown.mosaic.filters, ...shown.extra]} />
    </div>
  );
}

export function Mosaics({ mosaics, scenes, vaults, canCreate, linked, ready }: Props) {
  const [shown, setShown] = useState<Shown>();
  const [editing, setEditing] = useState<Mosaic | 'new'>();
  const [done, setDone] = useState('');
  const { error, run } = useAction();
  const canEdit = (m: { vault: string }) => vaults.some((v) => v.id === m.vault && v.access !== 'view');
  const path = (id: string) => `/api/mosaics/${encodeURIComponent(id)}`;
  const read = async (id: string) => (await get<{ mosaic: Mosaic }>(path(id))).mosaic;

  /** Runs the mosaic, `extra` filters added to its own for this run only (the run route applies both alike). */
  const runShown = async (mosaic: Mosaic, extra: MosaicFilter[]) => {
    setShown({ mosaic, running: true, extra });
    try {
      const answer = await post<MosaicRun>(`${path(mosaic.id)}/run`, { filters: extra });
      setShown({ mosaic, running: false, extra, outcomes: new Map(answer.tiles.map((t) => [t.tile_id, { run: t.result, error: t.error }])) });
    } catch (e) {
      setShown({ mosaic, running: false, extra, outcomes: new Map() });
      throw e;
    }
  };
  const open = (id: string) =>
    run(async () => {
      setEditing(undefined);
      await runShown(await read(id), []);
    });
  const edit = (id: string) =>
    run(async () => {
      const mosaic = await read(id);
      if (mosaic.tiles.some((t) => t.kind === 'hidden')) throw new Error(`Mosaic ${mosaic.name} has tiles whose scenes you may not see: saving it from here would drop them, so it is edited through the API.`);
      setShown(undefined);
      setEditing(mosaic);
    });
  const remove = (m: MosaicSummary) =>
    run(async () => {
      await api('DELETE', path(m.id));
      if (shown?.mosaic.id === m.id) setShown(undefined);
      await mosaics.reload();
      setDone(`Mosaic ${m.name} deleted.`);
    });
  const jump = useJumpOnce(linked?.id);
  useEffect(() => {
    if (linked) void run(() => runShown(linked, []));
  }, [linked?.id]);
  // The linked mosaic is listed even when it lies beyond the pages read so far.
  const items: MosaicSummary[] =
    linked && !mosaics.items.some((m) => m.id === linked.id)
      ? [{ id: linked.id, name: linked.name, description: linked.description, vault: linked.vault, tile_count: linked.tiles.length }, ...mosaics.items]
      : mosaics.items;
  const saved = async (id: string, message: string) => {
    setEditing(undefined);
    await mosaics.reload();
    setDone(message);
    await open(id);
  };

  return (
    <Section title="Mosaics">
      <ErrorBox error={mosaics.error ?? error} />
      {done ? <Notice>{done}</Notice> : null}
      <ul class="plain">
        {items.map((m) => (
          <li key={m.id} aria-label={`Mosaic ${m.name}`} {...(linked?.id === m.id ? { class: 'row linked', tabIndex: -1, 'aria-current': 'true', ref: ready && !mosaics.loading ? jump : undefined } : { class: 'row' })}>
            <button type="button" onClick={() => void open(m.id)} aria-label={`Open mosaic ${m.name}`}>Open</button>
            <span>{m.name} <span class="muted">({m.tile_count} tiles)</span></span>
            {canEdit(m) ? (
              <>
                <button type="button" onClick={() => void edit(m.id)} aria-label={`Edit mosaic ${m.name}`}>Edit</button>
                <ConfirmDelete what="mosaic" name={m.name} warning="Its scenes stay." onConfirm={() => remove(m)} />
              </>
            ) : null}
          </li>
        ))}
      </ul>
      <LoadMore list={mosaics} what="mosaics" />
      {!mosaics.loading && items.length === 0 && !mosaics.error ? <p class="muted">No mosaics yet.</p> : null}
      {canCreate && !editing ? <button type="button" onClick={() => { setShown(undefined); setEditing('new'); }}>New mosaic</button> : null}
      {editing ? (
        <MosaicEditor key={editing === 'new' ? 'new' : editing.id} {...(editing === 'new' ? {} : { mosaic: editing })} scenes={scenes} vaults={vaults} onSaved={saved} onCancel={() => setEditing(undefined)} />
      ) : null}
      {shown ? <OpenMosaic shown={shown} onNarrow={(extra) => void run(() => runShown(shown.mosaic, extra))} /> : null}
    </Section>
  );
}
