// Content: scenes and mosaics (content-runs.tsx), signals (signals.tsx) and, for luminaries, webhooks
// with their delivery log (webhooks.tsx).
import type { Me } from '../session';
import { Mosaics, Scenes } from './content-runs';
import { Signals } from './signals';
import { Webhooks } from './webhooks';

export function ContentPage({ me }: { me: Me }) {
  return (
    <div>
      <h1>Content</h1>
      <Scenes />
      <Mosaics />
      <Signals />
      {me.role === 'luminary' ? <Webhooks /> : null}
    </div>
  );
}
