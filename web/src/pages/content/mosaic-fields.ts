// The fields of the nodes a mosaic's scene tiles read (node-catalog.ts, joined fields included), so the
// dashboard filters can offer them and say which tiles each filter reaches: as the server applies a
// mosaic filter (mosaic-service.ts), to every scene tile whose node has the field, the others ignore it.
import { flatFields, loadFieldGroups, type MeasureInfo } from '../../components/node-catalog';
import type { FieldInfo } from '../../components/filter-editor';
import { useLoad } from '../../components/use-load';
import type { MosaicFilter, MosaicTile } from './content-types';

export type NodeFields = Map<string, { dimensions: FieldInfo[]; measures: MeasureInfo[] }>;

export function nodesOf(tiles: readonly MosaicTile[]): string[] {
  return [...new Set(tiles.flatMap((t) => (t.scene ? [t.scene.node] : [])))].sort();
}

export function useNodeFields(nodes: string[]) {
  return useLoad(async (): Promise<NodeFields> => new Map(await Promise.all(nodes.map(async (n) => [n, flatFields(await loadFieldGroups(n))] as const))), [nodes.join(',')]);
}

/** The dimensions any of the nodes has, once each, by id (a label from the first node that has it). */
export function sharedDimensions(fields: NodeFields | undefined): FieldInfo[] {
  const byId = new Map<string, FieldInfo>();
  for (const f of fields?.values() ?? []) for (const d of f.dimensions) if (!byId.has(d.id)) byId.set(d.id, d);
  return [...byId.values()];
}

/** The scene tiles a filter reaches: those it names, else every scene tile whose node has the field. */
export function tilesReached(filter: MosaicFilter, tiles: readonly MosaicTile[], fields: NodeFields | undefined): MosaicTile[] {
  return tiles.filter((t) => {
    if (!t.scene || (filter.tiles && !filter.tiles.includes(t.id))) return false;
    const own = fields?.get(t.scene.node);
    return own ? [...own.dimensions, ...own.measures].some((f) => f.id === filter.field) : false;
  });
}

/** The field's label: on `node` when given, else on the first node that has it; its id when none does. */
export function fieldLabel(fields: NodeFields | undefined, id: string, node?: string): string {
  const own = node ? fields?.get(node) : undefined;
  for (const f of own ? [own] : (fields?.values() ?? [])) {
    const found = [...f.dimensions, ...f.measures].find((x) => x.id === id);
    if (found) return found.label;
  }
  return id;
}
