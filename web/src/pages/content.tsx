// Content: scenes and mosaics (content-runs.tsx), signals (signals.tsx), scheduled deliveries
// (delivery-schedules.tsx) and, for luminaries, webhooks with their delivery log (webhooks.tsx).
import { atLeast, type Me } from '../session';
import { Mosaics, Scenes } from './content-runs';
import { DeliverySchedules } from './delivery-schedules';
import { Signals } from './signals';
import { Webhooks } from './webhooks';

export function ContentPage({ me }: { me: Me }) {
  return (
    <div>
      <h1>Content</h1>
      <Scenes />
      <Mosaics />
      <Signals />
      {atLeast(me, 'editor') ? <DeliverySchedules luminary={me.role === 'luminary'} /> : null}
      {me.role === 'luminary' ? <Webhooks /> : null}
    </div>
  );
}
