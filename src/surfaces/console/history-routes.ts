// GET /api/history: every run of the workspace, governed or raw, for its luminaries: what ran (SQL,
// surface, origin), for whom, how long it took and how it ended. Filters narrow it to one user, one
// surface, one origin (`scene:` for every scene) or the sources a user thinks in (`source=signal`).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../services.js';
import { HISTORY_SURFACES } from '../../store/schema.js';
import { historyPage, historyPageQuery, historySourceQuery, sourcesOf } from '../history-page.js';
import { presentWorkspaceRunWithSql, workspaceRunWithSqlSchema } from '../history-runnable.js';
import { LUMINARY_POLICY } from './member-routes.js';

export const historyRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/history',
    {
      config: LUMINARY_POLICY,
      schema: {
        tags: ['console'],
        operationId: 'listWorkspaceHistory',
        summary: "Every run of the workspace, newest first, with who ran it (luminary); pass next_cursor back as cursor",
        errors: { 400: 'Also: a cursor that is not a next_cursor of a previous page (`invalid_cursor`)' },
        querystring: historyPageQuery
          .extend({
            ...historySourceQuery.shape,
            user_id: z.string().uuid().optional(),
            surface: z.enum(HISTORY_SURFACES).optional(),
            origin: z.string().min(1).max(200).optional().describe('an origin (`structured`, `scene:<id>`) or a kind followed by a colon (`scene:`)'),
          })
          .strict(),
        response: { 200: z.object({ runs: z.array(workspaceRunWithSqlSchema), next_cursor: z.string().nullable() }) },
      },
    },
    async (request) => {
      const { limit, cursor, user_id: userId, surface, origin, source } = request.query;
      const sources = sourcesOf(source);
      await services.rawSql.flush(); // this instance's runs are written before they are listed
      const page = await services.history.pageForWorkspace(request.principal!.workspace.id, {
        limit,
        cursor,
        ...(userId ? { userId } : {}),
        ...(surface ? { surface } : {}),
        ...(origin ? { origin } : {}),
        ...(sources ? { sources } : {}),
      });
      return historyPage(page, presentWorkspaceRunWithSql);
    },
  );
};
