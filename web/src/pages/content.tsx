// Content: vaults (content/content-vaults.tsx), scenes (content/content-scenes.tsx), mosaics
// (content/content-mosaics.tsx), signals (signals.tsx), scheduled deliveries (delivery-schedules.tsx) and,
// for luminaries, webhooks with their delivery log (webhooks.tsx). The vault and scene lists are read here once and shared: scenes move between
// vaults, and the mosaic editor places scenes as tiles. `/content?scene=<id>` or `?mosaic=<id>` (the links
// scheduled deliveries send) brings that item into view, or says it is not there for this user: on
// loading the page, and whenever the address changes to another link while it is open.
import { get } from '../api';
import { useMemo } from 'preact/hooks';
import { useSearch } from '../router';
import { useLoad } from '../components/use-load';
import { usePaged } from '../components/use-paged';
import { ErrorBox } from '../components/feedback';
import { atLeast, type Me } from '../session';
import type { Mosaic, MosaicSummary, Scene, Vault } from './content/content-types';
import { contentLink, linkProblem } from './content/linked-content';
import { Mosaics } from './content/content-mosaics';
import { Scenes } from './content/content-scenes';
import { Vaults } from './content/content-vaults';
import { DeliverySchedules } from './delivery-schedules';
import { Signals } from './signals';
import { Webhooks } from './webhooks';

export function ContentPage({ me }: { me: Me }) {
  const vaults = useLoad(() => get<{ vaults: Vault[] }>('/api/vaults'));
  const scenes = usePaged<Scene>('/api/scenes?limit=50', 'scenes');
  const mosaics = usePaged<MosaicSummary>('/api/mosaics?limit=50', 'mosaics');
  const list = vaults.data?.vaults ?? [];
  const search = useSearch();
  const link = useMemo(() => contentLink(search), [search]);
  const linked = useLoad(async () => {
    if (!link) return {};
    const path = `/api/${link.kind}s/${encodeURIComponent(link.id)}`;
    return link.kind === 'scene' ? { scene: (await get<{ scene: Scene }>(path)).scene } : { mosaic: (await get<{ mosaic: Mosaic }>(path)).mosaic };
  }, [link?.kind, link?.id]);
  const problem = link && linked.error ? linkProblem(link, linked.error) : undefined;
  // Once the lists above an item have their rows, so scrolling to it is not undone by what loads later.
  const ready = !vaults.loading && !scenes.loading;
  const editor = atLeast(me, 'editor');
  return (
    <div>
      <h1>Content</h1>
      <ErrorBox error={vaults.error} />
      {problem ? <div class="error" role="alert">{problem}</div> : <ErrorBox error={linked.error} />}
      <Vaults vaults={list} reload={vaults.reload} canCreate={editor} />
      <Scenes scenes={scenes} vaults={list} onChanged={() => void mosaics.reload()} linked={linked.data?.scene} ready={ready} />
      <Mosaics mosaics={mosaics} scenes={scenes.items} vaults={list} canCreate={editor} linked={linked.data?.mosaic} ready={ready} />
      <Signals />
      {atLeast(me, 'editor') ? <DeliverySchedules luminary={atLeast(me, 'luminary')} /> : null}
      {me.role === 'luminary' ? <Webhooks /> : null}
    </div>
  );
}
