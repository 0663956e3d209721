// Response schemas shared by several surfaces.
import { z } from 'zod';

/**
 * Result rows: objects keyed by column name. Checked as an array only: the driver built each value,
 * and validating thousands of cells on every response cost as much as a small query.
 */
export const resultRowsSchema = z.array(z.any().describe('a row: an object keyed by column name'));
