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
