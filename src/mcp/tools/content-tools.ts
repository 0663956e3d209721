// Saved scenes: list those in vaults the caller may see, and run one fresh with the caller's data keys
// (surface C's POST /v1/scenes/:id/run, plus provenance). Both need `content:read`.
import { z } from 'zod';
import { sceneRunSchema } from '../../content/scene-definition.js';
import { PAGE_LIMIT } from '../../surfaces/content/content-policy.js';
import { sceneRunAnswerSchema } from '../../surfaces/content/scene-schema.js';
import { provenanceSchema, runScene as runSavedScene } from '../governed-calls.js';
import { AGENT_ROWS, defineTool } from '../tool.js';

const CONTENT = { scope: 'content:read' } as const;

export const listScenes = defineTool({
  name: 'list_scenes',
  title: 'List scenes',
  description: 'Saved scenes (named queries) you may see; q searches names and descriptions.',
  needs: CONTENT,
  input: z
    .object({
      node: z.string().min(1).max(200).optional(),
      q: z.string().min(1).max(200).optional(),
      limit: z.number().int().min(1).max(PAGE_LIMIT.max).default(PAGE_LIMIT.default),
      cursor: z.string().max(500).optional(),
    })
    .strict(),
  output: z.object({
    scenes: z.array(z.object({ id: z.string(), name: z.string(), description: z.string(), node: z.string(), status: z.string() })),
    next_cursor: z.string().nullable(),
  }),
  async run({ services, principal }, options) {
    const { scenes, nextCursor } = await services.scenes.list(principal, options);
    const list = scenes.map((s) => ({ id: s.id, name: s.name, description: s.description, node: s.node, status: s.status }));
    return { structured: { scenes: list, next_cursor: nextCursor }, text: list.map((s) => `${s.id} ${s.name} (${s.node})`).join('\n') || 'No scenes.' };
  },
});

export const runScene = defineTool({
  name: 'run_scene',
  title: 'Run a scene',
  description: `Runs a saved scene with your data keys, filters added to its own. Limit default ${AGENT_ROWS.default}.`,
  needs: CONTENT,
  input: sceneRunSchema.extend({ scene_id: z.uuid(), limit: z.number().int().min(1).max(AGENT_ROWS.max).default(AGENT_ROWS.default) }),
  output: sceneRunAnswerSchema.extend({ truncated: z.boolean(), provenance: provenanceSchema }),
  async run({ services, principal }, { scene_id, ...options }) {
    const { answer, provenance } = await runSavedScene(services, principal, scene_id, options);
    const truncated = answer.metadata.truncated || answer.data.length >= options.limit;
    return {
      structured: { ...answer, truncated, provenance },
      text: `${answer.scene.name}: ${answer.metadata.row_count} rows${truncated ? ' (truncated)' : ''}; model v${provenance.model_version}, ran ${provenance.freshness}\n${answer.data.slice(0, 5).map((r) => JSON.stringify(r)).join('\n')}`,
    };
  },
});
