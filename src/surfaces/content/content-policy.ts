// Scenes and mosaics are served twice: on surface C to structured keys (scopes content:read and
// content:write, acting as the key's user) and in the console to sessions. The routes are written once
// and mounted with the policies, tags and operation ids of each place.
import { SURFACE_POLICY, type RoutePolicy } from '../../http/route-policy.js';
import type { Services } from '../../services.js';

export interface ContentPlace {
  services: Services;
  read: Partial<RoutePolicy>;
  write: Partial<RoutePolicy>;
  tags: string[];
  /** Prefixes operation ids, which must be unique across the document. */
  operationPrefix: string;
  /** Only surface C runs scenes and mosaics (the run is recorded as a structured API run). */
  runs: boolean;
}

export function structuredPlace(services: Services): ContentPlace {
  return {
    services,
    read: { ...SURFACE_POLICY.structured, scope: 'content:read' },
    write: { ...SURFACE_POLICY.structured, scope: 'content:write', role: 'editor' },
    tags: ['C. structured'],
    operationPrefix: '',
    runs: true,
  };
}

export function consolePlace(services: Services): ContentPlace {
  return {
    services,
    read: SURFACE_POLICY.console,
    write: { ...SURFACE_POLICY.console, role: 'editor' },
    tags: ['console'],
    operationPrefix: 'console',
    runs: false,
  };
}

/** `listScenes` on C, `consoleListScenes` in the console. */
export function operationId(place: ContentPlace, name: string): string {
  return place.operationPrefix ? `${place.operationPrefix}${name[0]!.toUpperCase()}${name.slice(1)}` : name;
}

/** The query string of a content list: a page of `limit`, continued with a previous page's next_cursor. */
export const PAGE_LIMIT = { default: 50, max: 200 } as const;
