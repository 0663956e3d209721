// What a scene is: a saved structured query (the body of POST /v1/query without its node's rows) and
// how to draw it. The zod schemas are the one source of the shape, for the routes and the OpenAPI
// document alike; whether the fields exist is checked against the live model (scene-validation.ts).
import { z } from 'zod';
import { compareSchema, filtersSchema, perSchema, shareSchema, sortSchema, type CompareSpec, type PerSpec, type ShareSpec } from '../core/semantic/query.js';
import { VISUALIZATION_TYPES } from './visualization-types.js';

export { VISUALIZATION_TYPES } from './visualization-types.js';

const fieldId = z.string().min(1).max(300);

export const visualizationSchema = z
  .object({
    type: z.enum(VISUALIZATION_TYPES),
    x: fieldId.optional().describe('the field on the x axis (a dimension or measure of the scene)'),
    y: z.array(fieldId).max(20).optional().describe('the fields on the y axis'),
    series: fieldId.optional().describe('the field that splits the data into series'),
    color: fieldId.optional().describe('the field that colours marks'),
    options: z.record(z.string(), z.unknown()).optional().describe('free-form drawing options (titles, stacking, formats)'),
  })
  .strict();
export type Visualization = z.infer<typeof visualizationSchema>;

const sharesSchema = z.array(shareSchema).max(50);
const perListSchema = z.array(perSchema).max(50);

/** The saved query: the fields of POST /v1/query, comparisons, shares and ratios included. */
export const sceneQueryShape = {
  node: z.string().min(1).max(200),
  dimensions: z.array(z.string().min(1)).max(50).default([]),
  measures: z.array(z.string().min(1)).max(50).default([]),
  filters: filtersSchema.default([]),
  sorts: z.array(sortSchema).max(20).default([]),
  limit: z.number().int().min(1).max(50_000).optional(),
  compare: compareSchema.optional(),
  shares: sharesSchema.optional(),
  per: perListSchema.optional(),
};

export const sceneInputSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(5000).default(''),
    vault: z.uuid().optional().describe("the vault to keep the scene in; the caller's personal vault when omitted"),
    ...sceneQueryShape,
    visualization: visualizationSchema.default({ type: 'table' }),
  })
  .strict();
export type SceneInput = z.output<typeof sceneInputSchema>;

/** A PATCH: any field of a scene; the ones given replace the saved ones. */
export const scenePatchSchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(5000).optional(),
    vault: z.uuid().optional(),
    node: sceneQueryShape.node.optional(),
    dimensions: z.array(z.string().min(1)).max(50).optional(),
    measures: z.array(z.string().min(1)).max(50).optional(),
    filters: filtersSchema.optional(),
    sorts: z.array(sortSchema).max(20).optional(),
    limit: z.number().int().min(1).max(50_000).nullable().optional(),
    compare: compareSchema.nullable().optional().describe('null removes the comparison'),
    shares: sharesSchema.nullable().optional().describe('null or [] removes the shares'),
    per: perListSchema.nullable().optional().describe('null or [] removes the ratios'),
    visualization: visualizationSchema.optional(),
  })
  .strict();
export type ScenePatch = z.output<typeof scenePatchSchema>;

/**
 * What the store keeps in `query`: the saved query without its node (a column of its own). `compare`,
 * `shares` and `per` are kept only when the scene has them (scenes saved before they existed have none).
 */
export interface SavedQuery {
  dimensions: string[];
  measures: string[];
  filters: z.output<typeof filtersSchema>;
  sorts: Array<z.output<typeof sortSchema>>;
  limit?: number | undefined;
  compare?: CompareSpec | undefined;
  shares?: ShareSpec[] | undefined;
  per?: PerSpec[] | undefined;
}

/** Extra filters, row cap and time zone a run may add to the saved query. */
export const sceneRunSchema = z
  .object({
    filters: filtersSchema.default([]).describe('added to the saved filters (all must hold)'),
    limit: z.number().int().min(1).max(50_000).optional().describe('replaces the saved row limit'),
    timezone: z.string().min(1).max(64).optional(),
  })
  .strict();
export type SceneRunOptions = z.output<typeof sceneRunSchema>;
