// Schemas shared by several surfaces.
import { z } from 'zod';

/**
 * Result rows: objects keyed by column name. Checked as an array only: the driver built each value,
 * and validating thousands of cells on every response cost as much as a small query.
 */
export const resultRowsSchema = z.array(z.any().describe('a row: an object keyed by column name'));

/** The body of every error, on every route (docs/api.md "Errors"); some codes add details. */
export const errorSchema = z
  .object({
    error: z.string().describe('What went wrong, for people'),
    code: z.string().describe('Stable, for programs: see the Errors section of docs/api.md'),
    request_id: z.string().optional().describe('On 5xx only: quote it to the operator; also in the X-Request-Id header'),
  })
  .catchall(z.unknown())
  .describe('An error. Some codes add details: `reason` (a refused statement), `diagnostics` (CML), `field` and `limit` (refused input)');
