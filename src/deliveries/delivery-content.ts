// What a scheduled delivery sends: its scene, or every scene tile of its mosaic, run fresh through the
// governed path as the schedule's owner (their data keys, the row and time limits every scene run has),
// in the schedule's time zone. A scene or mosaic the owner may no longer see is a NotFoundError, which
// the caller records as a failed run; a mosaic tile that fails (or that the owner may not see) is sent
// as a table with its error, beside the tiles that ran.
import type { MosaicService } from '../content/mosaic-service.js';
import type { SceneService } from '../content/scene-service.js';
import type { Principal } from '../identity/principal.js';
import { failedTable, tableOf, type DeliveredTable } from './result-tables.js';

export interface DeliveryTarget {
  kind: 'scene' | 'mosaic';
  id: string;
}

export interface DeliveryContent {
  name: string;
  tables: DeliveredTable[];
}

export async function readDeliveryContent(
  content: { scenes: SceneService; mosaics: MosaicService },
  owner: Principal,
  target: DeliveryTarget,
  timezone: string,
  origin: string,
): Promise<DeliveryContent> {
  if (target.kind === 'scene') {
    const scene = await content.scenes.get(owner, target.id);
    const run = await content.scenes.runRow(owner, scene, { filters: [], timezone }, origin);
    return { name: scene.name, tables: [tableOf(scene.name, scene.id, run.result.columns.map((c) => c.name), run.result.rows, run.result.truncated)] };
  }
  const { mosaic, tiles } = await content.mosaics.run(owner, target.id, { filters: [], timezone });
  const tables = tiles.map((outcome): DeliveredTable => {
    if ('hidden' in outcome) return failedTable(`Tile ${outcome.tile.id}`, null, "its scene is in a vault the schedule's owner may not see");
    if ('error' in outcome) return failedTable(outcome.scene.name, outcome.scene.id, outcome.error.error);
    const { result } = outcome.run;
    return tableOf(outcome.scene.name, outcome.scene.id, result.columns.map((c) => c.name), result.rows, result.truncated);
  });
  return { name: mosaic.name, tables };
}
