// Who may see the values of a signal. A signal's values (its last value, its state, its evaluation
// history) were read with one member's data keys: its owner's, or for an older history row the owner's
// at the time. Anyone who may see the signal's vault sees its definition; its values only when their
// own data keys give the same rows as those of the member who read them (sameDataKeyRows). Otherwise
// a reader could learn, through someone else's signal, a figure their own queries would never show.
import { sameDataKeyRows } from '../core/semantic/data-keys.js';
import type { Principal } from '../identity/principal.js';
import type { GovernedQueryService } from '../querying/governed-query-service.js';
import type { SignalsRepo } from './signals-repo.js';

export const VALUES_HIDDEN =
  "This signal's values were read with its owner's data keys, which show other rows than yours; they are shown only to members whose data keys give the same rows. A dry evaluation reads it with your own keys.";

/** Whether values read as each of `readerIds` are hidden from `principal`. */
export async function hiddenValues(
  deps: { signals: Pick<SignalsRepo, 'memberAttributes'>; governed: Pick<GovernedQueryService, 'live'> },
  principal: Principal,
  readerIds: readonly string[],
): Promise<(readerId: string) => boolean> {
  const others = [...new Set(readerIds)].filter((id) => id !== principal.user.id);
  if (others.length === 0) return () => false;
  const [live, attributes] = await Promise.all([deps.governed.live(principal), deps.signals.memberAttributes(principal.workspace.id, others)]);
  const hidden = new Map(
    others.map((id) => {
      const theirs = attributes.get(id);
      // A reader who left the workspace has no data keys to compare with: their values stay hidden.
      return [id, !theirs || !sameDataKeyRows(live.model, principal.attributes, theirs)];
    }),
  );
  return (readerId) => readerId !== principal.user.id && (hidden.get(readerId) ?? true);
}
