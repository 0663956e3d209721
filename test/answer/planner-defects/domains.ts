// The two models of the planner-defect cases, as domains the unseen-set harness can run end to end.
import { fileURLToPath } from 'node:url';
import type { UnseenDomain } from '../unseen/types.js';
import type { DefectCase } from './cases.js';
import { gridTables } from './grid/data.js';
import { GRID_CASES } from './grid/questions.js';
import { supplyTables } from './supply/data.js';
import { SUPPLY_CASES } from './supply/questions.js';

const modelDir = (name: string): string => fileURLToPath(new URL(`./${name}/model/`, import.meta.url));

export const DEFECT_CASES: readonly DefectCase[] = [...GRID_CASES, ...SUPPLY_CASES];

export const DEFECT_DOMAINS: readonly UnseenDomain[] = [
  { name: 'grid', schema: 'grid', modelDir: modelDir('grid'), tables: gridTables, questions: GRID_CASES.map((c) => c.question) },
  { name: 'supply', schema: 'supply', modelDir: modelDir('supply'), tables: supplyTables, questions: SUPPLY_CASES.map((c) => c.question) },
];
