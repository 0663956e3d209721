import { z } from 'zod';
import { ROLES } from '../../store/schema.js';

export const userSchema = z.object({ id: z.string(), email: z.string(), name: z.string() });
export const workspaceRefSchema = z.object({ id: z.string(), name: z.string(), plan: z.string() });

export const meSchema = z.object({
  user: userSchema,
  workspace: workspaceRefSchema,
  role: z.enum(ROLES),
  attributes: z.record(z.string(), z.string()),
});

/** The query of a console list read a page at a time (keys, authorized applications). */
export const pageQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50), cursor: z.string().max(500).optional() }).strict();
export const PAGE_QUERY_ERRORS = { 400: 'A limit out of 1..200, or a cursor that is not a next_cursor of a previous page (`invalid_cursor`)' } as const;
