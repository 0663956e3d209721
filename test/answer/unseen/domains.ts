// The four unseen domains: none is the demo's commerce data, and none was written beside the planner.
import { fileURLToPath } from 'node:url';
import { freightTables } from './freight/data.js';
import { FREIGHT_QUESTIONS } from './freight/questions.js';
import { leagueTables } from './league/data.js';
import { LEAGUE_QUESTIONS } from './league/questions.js';
import { marketTables } from './market/data.js';
import { MARKET_QUESTIONS } from './market/questions.js';
import type { UnseenDomain } from './types.js';
import { weatherTables } from './weather/data.js';
import { WEATHER_QUESTIONS } from './weather/questions.js';

const modelDir = (name: string): string => fileURLToPath(new URL(`./${name}/model/`, import.meta.url));

export const UNSEEN_DOMAINS: readonly UnseenDomain[] = [
  { name: 'freight', schema: 'freight', modelDir: modelDir('freight'), tables: freightTables, questions: FREIGHT_QUESTIONS },
  { name: 'weather', schema: 'weather', modelDir: modelDir('weather'), tables: weatherTables, questions: WEATHER_QUESTIONS },
  { name: 'league', schema: 'league', modelDir: modelDir('league'), tables: leagueTables, questions: LEAGUE_QUESTIONS },
  { name: 'market', schema: 'market', modelDir: modelDir('market'), tables: marketTables, questions: MARKET_QUESTIONS },
];
