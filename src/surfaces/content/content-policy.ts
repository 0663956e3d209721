// Scenes and mosaics are served twice: on surface C to structured keys (scopes content:read and
// content:write, acting as the key's user) and in the console to sessions. The routes are written once
// and mounted with the policies, tags and operation ids of each place (see ../route-place.ts); the
// console's other mirrors of key routes (nodes, query, model, users, questions) mount the same places.
import type { RoutePolicy } from '../../http/route-policy.js';
import type { Services } from '../../services.js';
import { sessionPlace, structuredKeyPlace, type RoutePlace } from '../route-place.js';

export { operationId } from '../route-place.js';

export interface ContentPlace extends RoutePlace {
  read: Partial<RoutePolicy>;
  write: Partial<RoutePolicy>;
  /** Whether the place mounts the run routes (both do: a run is recorded with its `scene:`/`mosaic:` origin). */
  runs: boolean;
}

function contentPlace(place: RoutePlace, runs: boolean): ContentPlace {
  return { ...place, read: place.policy({ scope: 'content:read' }), write: place.policy({ scope: 'content:write', role: 'editor' }), runs };
}

export function structuredPlace(services: Services): ContentPlace {
  return contentPlace(structuredKeyPlace(services), true);
}

export function consolePlace(services: Services): ContentPlace {
  return contentPlace(sessionPlace(services), true);
}

/** The query string of a content list: a page of `limit`, continued with a previous page's next_cursor. */
export const PAGE_LIMIT = { default: 50, max: 200 } as const;
