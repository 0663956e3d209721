// Every tool the MCP server offers, in the order tools/list shows them (catalog first: an agent reads
// before it queries).
import type { Tool } from '../tool.js';
import { ask } from './ask-tool.js';
import { getMetrics, getNode, listNodes, listReveals, searchValues } from './catalog-tools.js';
import { listScenes, runScene } from './content-tools.js';
import { explain, query } from './query-tools.js';
import { runSql } from './sql-tool.js';

export const TOOLS: readonly Tool[] = [listReveals, getMetrics, listNodes, getNode, searchValues, query, explain, ask, listScenes, runScene, runSql] as unknown as readonly Tool[];
