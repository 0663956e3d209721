// The shapes the content routes answer (GET /api/vaults, /api/scenes, /api/mosaics and their runs), as
// the Content page reads them. docs/api.md, "Surface C: scenes and mosaics", is the reference.
import type { Visualization } from '../../components/chart-plan.js';
import type { ResultColumn } from '../../components/result-format.js';

export type VaultAccess = 'view' | 'edit' | 'manage';
export interface Vault { id: string; name: string; description: string; personal: boolean; access: VaultAccess }
export interface VaultMember { user_id: string; email: string; name: string; access: VaultAccess }

/** A saved filter as POST /v1/query takes it: a field filter or an and/or/not group of filters. */
export type SavedFilter = { field: string; operator: string; value?: unknown } | { and: SavedFilter[] } | { or: SavedFilter[] } | { not: SavedFilter };

export interface Scene {
  id: string;
  name: string;
  description: string;
  vault: string;
  node: string;
  dimensions: string[];
  measures: string[];
  filters: SavedFilter[];
  sorts: Array<{ field: string; direction: 'asc' | 'desc' }>;
  /** null: the server's default. */
  limit: number | null;
  status: string;
  broken_reason: string | null;
  visualization: Visualization;
  version: number;
}
export interface SceneRun { data: Array<Record<string, unknown>>; metadata: { row_count: number; columns?: ResultColumn[] }; scene: { id: string; name: string } }

export interface TileLayout { x: number; y: number; w: number; h: number }
export interface MosaicTile {
  id: string;
  kind: 'scene' | 'text' | 'heading' | 'hidden';
  scene_id?: string;
  text?: string;
  scene?: { id: string; name: string; node: string; status: string; visualization_type: Visualization['type']; visualization?: Visualization };
  layout: TileLayout;
}
export interface MosaicFilter { field: string; operator: string; value?: unknown; tiles?: string[] }
export interface MosaicSummary { id: string; name: string; description: string; vault: string; tile_count: number }
export interface Mosaic { id: string; name: string; description: string; vault: string; version: number; tiles: MosaicTile[]; filters: MosaicFilter[] }
export interface TileError { error: string; code: string; status: number }
export interface MosaicRun { tiles: Array<{ tile_id: string; result?: SceneRun; error?: TileError }> }
