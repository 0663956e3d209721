// Content: vaults (content/content-vaults.tsx), scenes (content/content-scenes.tsx), mosaics
// (content/content-mosaics.tsx), signals (signals.tsx), scheduled deliveries (delivery-schedules.tsx) and,
// for luminaries, webhooks with their delivery log (webhooks.tsx). The vault and scene lists are read here once and shared: scenes move between
// vaults, and the mosaic editor places scenes as tiles.
import { get } from '../api';
import { useLoad } from '../components/use-load';
import { usePaged } from '../components/use-paged';
import { ErrorBox } from '../components/feedback';
import { atLeast, type Me } from '../session';
import type { MosaicSummary, Scene, Vault } from './content/content-types';
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
  const editor = atLeast(me, 'editor');
  return (
    <div>
      <h1>Content</h1>
      <ErrorBox error={vaults.error} />
      <Vaults vaults={list} reload={vaults.reload} canCreate={editor} canListMembers={me.role === 'luminary'} />
      <Scenes scenes={scenes} vaults={list} onChanged={() => void mosaics.reload()} />
      <Mosaics mosaics={mosaics} scenes={scenes.items} vaults={list} canCreate={editor} />
      <Signals />
      {atLeast(me, 'editor') ? <DeliverySchedules luminary={me.role === 'luminary'} /> : null}
      {me.role === 'luminary' ? <Webhooks /> : null}
    </div>
  );
}
