// Scenes on the Content page: each with its node, fields, chart type and saved filters in words; Run
// (POST /api/scenes/:id/run, recorded as a scene run and drawn as the saved chart type), Edit (name,
// description, chart type, filters, sort and limit, vault: scene-edit-form.tsx) and Delete after a
// confirmation. The list shows every vault's scenes or one vault's; a link to a scene (linked-content.ts)
// opens its vault's list with the scene in view, focused and marked.
import { useEffect, useState } from 'preact/hooks';
import { api, post } from '../../api';
import { CHART_LABELS } from '../../components/chart-labels';
import type { Visualization } from '../../components/chart-plan';
import { ConfirmDelete } from '../../components/confirm-delete';
import { dimensionLabel } from '../../components/dimension-picker';
import { ErrorBox, Notice } from '../../components/feedback';
import { Section, SelectField } from '../../components/field';
import { useAction } from '../../components/use-load';
import { LoadMore, usePaged } from '../../components/use-paged';
import type { Scene, SceneRun, Vault } from './content-types';
import { filterInWords } from './filter-words';
import { useJumpOnce } from './linked-content';
import { fieldLabel, useNodeFields } from './mosaic-fields';
import { RunView } from './scene-run-view';
import { SceneEditForm } from './scene-edit-form';

interface Props {
  scenes: ReturnType<typeof usePaged<Scene>>;
  vaults: Vault[];
  /** Called after a scene changed, so mosaics showing it are read again. */
  onChanged: () => void;
  /** The scene the page's address links to, once read. */
  linked?: Scene | undefined;
  /** The sections above have their height: the linked scene may be scrolled to. */
  ready: boolean;
}

export function Scenes({ scenes: everyVault, vaults, onChanged, linked, ready }: Props) {
  const [vault, setVault] = useState('');
  // A link to a scene shows its vault; the list stays as it is when the address moves on to a mosaic.
  useEffect(() => {
    if (linked) setVault(linked.vault);
  }, [linked?.id]);
  const oneVault = usePaged<Scene>(vault ? `/api/scenes?limit=50&vault=${encodeURIComponent(vault)}` : null, 'scenes');
  const scenes = vault ? oneVault : everyVault;
  // The linked scene is shown even when it lies beyond the pages read so far.
  const items = linked && !scenes.items.some((s) => s.id === linked.id) && (!vault || vault === linked.vault) ? [linked, ...scenes.items] : scenes.items;
  const jump = useJumpOnce(linked?.id);
  const [run, setRun] = useState<{ result: SceneRun; visualization: Visualization; node: string }>();
  const [editing, setEditing] = useState<string>();
  const [done, setDone] = useState('');
  const { error, run: act } = useAction();
  const vaultName = (id: string) => vaults.find((v) => v.id === id)?.name ?? 'a vault';
  // Field labels of the scenes' nodes, so filters read as the model names the fields ("Region").
  const fields = useNodeFields([...new Set(items.map((s) => s.node))].sort());
  // A field by its label, a time with its grain ("Ordered at (month)"); its id until the fields are read.
  const named = (s: Scene, id: string) => dimensionLabel(id, fields.data?.get(s.node)?.dimensions ?? []) ?? fieldLabel(fields.data, id, s.node);
  const canEdit = (s: Scene) => vaults.some((v) => v.id === s.vault && v.access !== 'view');

  const open = (scene: Scene) =>
    act(async () => setRun({ result: await post<SceneRun>(`/api/scenes/${encodeURIComponent(scene.id)}/run`), visualization: scene.visualization, node: scene.node }));
  const reload = async () => {
    await Promise.all([everyVault.reload(), vault ? oneVault.reload() : undefined]);
    onChanged();
  };
  const remove = (scene: Scene) =>
    act(async () => {
      await api('DELETE', `/api/scenes/${encodeURIComponent(scene.id)}`);
      if (run?.result.scene.id === scene.id) setRun(undefined);
      await reload();
      setDone(`Scene ${scene.name} deleted.`);
    });
  const saved = async (message: string) => {
    setEditing(undefined);
    setRun(undefined);
    await reload();
    setDone(message);
  };

  return (
    <Section title="Scenes">
      <ErrorBox error={scenes.error ?? error} />
      {done ? <Notice>{done}</Notice> : null}
      <SelectField label="Scenes of" value={vault} options={[{ value: '', label: 'Every vault' }, ...vaults.map((v) => ({ value: v.id, label: `Vault ${v.name}` }))]} onChange={setVault} />
      <ul class="plain scenes">
        {items.map((s) => (
          <li key={s.id} aria-label={`Scene ${s.name}`} {...(linked?.id === s.id ? { class: 'linked', tabIndex: -1, 'aria-current': 'true', ref: ready && vault === s.vault && !scenes.loading ? jump : undefined } : {})}>
            <div class="row">
              <button type="button" onClick={() => void open(s)} aria-label={`Run scene ${s.name}`}>Run</button>
              <strong>{s.name}</strong>
              <span class="muted">{s.node}: {[...s.measures, ...s.dimensions].map((id) => named(s, id)).join(', ')} · {CHART_LABELS[s.visualization.type]} · in {vaultName(s.vault)}</span>
              {canEdit(s) ? (
                <>
                  <button type="button" aria-expanded={editing === s.id} onClick={() => setEditing(editing === s.id ? undefined : s.id)} aria-label={`Edit scene ${s.name}`}>Edit</button>
                  <ConfirmDelete what="scene" name={s.name} warning="Mosaic tiles showing it will say it is gone." onConfirm={() => remove(s)} />
                </>
              ) : null}
            </div>
            <p class="muted scene-filters">{s.filters.length ? `Filters: ${s.filters.map((f) => filterInWords(f, (id) => fieldLabel(fields.data, id, s.node))).join('; ')}` : 'No filters: every row.'}</p>
            {s.status === 'broken' ? <p class="status error">broken: {s.broken_reason}</p> : null}
            {editing === s.id ? <SceneEditForm scene={s} vaults={vaults} onSaved={saved} onCancel={() => setEditing(undefined)} /> : null}
          </li>
        ))}
      </ul>
      <LoadMore list={scenes} what="scenes" />
      {!scenes.loading && items.length === 0 && !scenes.error ? <p class="muted">{vault ? 'No scenes in this vault.' : 'No scenes yet: save one from Explore.'}</p> : null}
      {run ? <RunView run={run.result} title={run.result.scene.name} visualization={run.visualization} node={run.node} fields={fields.data} /> : null}
    </Section>
  );
}
