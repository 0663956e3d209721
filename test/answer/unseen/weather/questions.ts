// Questions the planning and research teams ask of the station network. Now is 2025-06-18 15:00 UTC;
// a question without a period means the last 30 complete days (2025-05-19 to 2025-06-18); questions
// about the network as it stands today (stations, their status) are over every row.
import { ask, decline, ranked, rows, value } from '../question-helpers.js';
import type { UnseenQuestion } from '../types.js';

const Y2024 = `observed_on >= DATE '2024-01-01' AND observed_on < DATE '2025-01-01'`;
const OBS = 'weather.observations o JOIN weather.stations s ON s.id = o.station_id';

export const WEATHER_QUESTIONS: readonly UnseenQuestion[] = [
  // Simple metrics
  ask('total rainfall last month', 'en', ['simple', 'period'], value(`SELECT sum(rainfall_mm) FROM weather.observations WHERE observed_on >= DATE '2025-05-01' AND observed_on < DATE '2025-06-01'`)),
  ask('What was the average temperature in January 2025?', 'en', ['simple', 'period'], value(`SELECT avg(temp_mean_c) FROM weather.observations WHERE observed_on >= DATE '2025-01-01' AND observed_on < DATE '2025-02-01'`)),
  ask('What was the highest temperature recorded in 2024?', 'en', ['simple', 'verb', 'period'], value(`SELECT max(temp_max_c) FROM weather.observations WHERE ${Y2024}`)),
  ask('coldest temperature in Q1 2025', 'en', ['simple', 'derived_form', 'period'], value(`SELECT min(temp_min_c) FROM weather.observations WHERE observed_on >= DATE '2025-01-01' AND observed_on < DATE '2025-04-01'`)),
  ask('How much snow fell this year?', 'en', ['simple', 'verb', 'synonym', 'period'], value(`SELECT sum(snowfall_mm) FROM weather.observations WHERE observed_on >= DATE '2025-01-01' AND observed_on < DATE '2025-06-19'`)),
  ask('how many frost days did we have in 2024', 'en', ['simple', 'verb', 'period'], value(`SELECT count(*) FROM weather.observations WHERE temp_min_c < 0 AND ${Y2024}`)),
  ask('average humidity last week', 'en', ['simple', 'period'], value(`SELECT avg(humidity_pct / 100.0) FROM weather.observations WHERE observed_on >= DATE '2025-06-09' AND observed_on < DATE '2025-06-16'`)),
  ask('peak wind speed in March 2025', 'en', ['simple', 'period'], value(`SELECT max(wind_max_kmh) FROM weather.observations WHERE observed_on >= DATE '2025-03-01' AND observed_on < DATE '2025-04-01'`)),
  ask('How many weather stations do we have?', 'en', ['simple', 'snapshot', 'no_period'], value(`SELECT count(*) FROM weather.stations`)),
  ask('How many stations are active?', 'en', ['simple', 'snapshot', 'no_period'], value(`SELECT count(*) FROM weather.stations WHERE status = 'active'`)),
  ask('average elevation of our stations', 'en', ['simple', 'snapshot', 'no_period'], value(`SELECT avg(elevation_m) FROM weather.stations`)),
  ask('average daily rainfall in 2024', 'en', ['simple', 'period'], value(`SELECT sum(rainfall_mm) / nullif(count(*), 0) FROM weather.observations WHERE ${Y2024}`)),

  // Breakdowns
  ask('rainfall by station in 2024', 'en', ['breakdown', 'joined_value', 'period'], rows(`SELECT s.name, sum(o.rainfall_mm) FROM ${OBS} WHERE o.${Y2024} GROUP BY 1`)),
  ask('average temperature by region in Q2 2024', 'en', ['breakdown', 'joined_value', 'period'], rows(`SELECT s.region, avg(o.temp_mean_c) FROM ${OBS} WHERE o.observed_on >= DATE '2024-04-01' AND o.observed_on < DATE '2024-07-01' GROUP BY 1`)),
  ask('days by condition in 2024', 'en', ['breakdown', 'null_group', 'period'], rows(`SELECT condition, count(*) FROM weather.observations WHERE ${Y2024} GROUP BY 1`)),
  ask('average temperature by month in 2024', 'en', ['breakdown', 'time_grain', 'period'], rows(`SELECT strftime(date_trunc('month', observed_on), '%Y-%m-%d'), avg(temp_mean_c) FROM weather.observations WHERE ${Y2024} GROUP BY 1`)),
  ask('snowfall per region this year', 'en', ['breakdown', 'joined_value', 'period'], rows(`SELECT s.region, sum(o.snowfall_mm) FROM ${OBS} WHERE o.observed_on >= DATE '2025-01-01' AND o.observed_on < DATE '2025-06-19' GROUP BY 1`)),
  ask('stations by status', 'en', ['breakdown', 'snapshot', 'no_period'], rows(`SELECT status, count(*) FROM weather.stations GROUP BY 1`)),
  ask('frost days per station in Q1 2025', 'en', ['breakdown', 'joined_value', 'period'], rows(`SELECT s.name, count(*) FILTER (WHERE o.temp_min_c < 0) FROM ${OBS} WHERE o.observed_on >= DATE '2025-01-01' AND o.observed_on < DATE '2025-04-01' GROUP BY 1`)),

  // Filters on values
  ask('How many rainy days were there in 2024?', 'en', ['filter', 'derived_form', 'period'], value(`SELECT count(*) FROM weather.observations WHERE condition = 'rain' AND ${Y2024}`)),
  ask('snowy days in Q1 2025', 'en', ['filter', 'derived_form', 'period'], value(`SELECT count(*) FROM weather.observations WHERE condition = 'snow' AND observed_on >= DATE '2025-01-01' AND observed_on < DATE '2025-04-01'`)),
  ask('Rainfall at The Dalles in 2024', 'en', ['filter', 'stop_word_value', 'joined_value', 'multi_word_value', 'period'], value(`SELECT sum(o.rainfall_mm) FROM ${OBS} WHERE s.name = 'The Dalles' AND o.${Y2024}`)),
  ask('average temperature in new york central park last month', 'en', ['filter', 'casing', 'joined_value', 'multi_word_value', 'period'], value(`SELECT avg(o.temp_mean_c) FROM ${OBS} WHERE s.name = 'New York Central Park' AND o.observed_on >= DATE '2025-05-01' AND o.observed_on < DATE '2025-06-01'`)),
  ask('rainfall in the Pacific Northwest in 2024', 'en', ['filter', 'joined_value', 'multi_word_value', 'period'], value(`SELECT sum(o.rainfall_mm) FROM ${OBS} WHERE s.region = 'Pacific Northwest' AND o.${Y2024}`)),
  ask('frost days in Boulder in 2024', 'en', ['filter', 'joined_value', 'period'], value(`SELECT count(*) FROM ${OBS} WHERE s.name = 'Boulder' AND o.temp_min_c < 0 AND o.${Y2024}`)),
  ask('how many foggy days were there in 2024', 'en', ['filter', 'derived_form', 'period'], value(`SELECT count(*) FROM weather.observations WHERE condition = 'fog' AND ${Y2024}`)),
  ask('How much did it rain in Seattle Harbor in March 2025?', 'en', ['filter', 'verb', 'joined_value', 'multi_word_value', 'period'], value(`SELECT sum(o.rainfall_mm) FROM ${OBS} WHERE s.name = 'Seattle Harbor' AND o.observed_on >= DATE '2025-03-01' AND o.observed_on < DATE '2025-04-01'`)),
  ask('highest temperature at Death Valley in 2024', 'en', ['filter', 'joined_value', 'multi_word_value', 'period'], value(`SELECT max(o.temp_max_c) FROM ${OBS} WHERE s.name = 'Death Valley' AND o.${Y2024}`)),
  ask('average humidity on thunderstorm days in 2024', 'en', ['filter', 'period'], value(`SELECT avg(humidity_pct / 100.0) FROM weather.observations WHERE condition = 'thunderstorm' AND ${Y2024}`)),
  ask('How many stations does NOAA operate?', 'en', ['filter', 'verb', 'snapshot', 'no_period'], value(`SELECT count(*) FROM weather.stations WHERE operator = 'NOAA'`)),
  ask('How many stations are in OR?', 'en', ['filter', 'stop_word_value', 'snapshot', 'no_period'], value(`SELECT count(*) FROM weather.stations WHERE state = 'OR'`)),
  ask('rainfall in OR in 2024', 'en', ['filter', 'stop_word_value', 'joined_value', 'period'], value(`SELECT sum(o.rainfall_mm) FROM ${OBS} WHERE s.state = 'OR' AND o.${Y2024}`)),

  // Top-N and bottom-N (a NULL group is not a member)
  ask('Which 3 stations had the most rainfall in 2024?', 'en', ['top_n', 'joined_value', 'period'], ranked(`SELECT s.name, sum(o.rainfall_mm) AS v FROM ${OBS} WHERE o.${Y2024} GROUP BY 1 ORDER BY v DESC LIMIT 3`)),
  ask('the 5 stations with the lowest average temperature in 2024', 'en', ['bottom_n', 'joined_value', 'period'], ranked(`SELECT s.name, avg(o.temp_mean_c) AS v FROM ${OBS} WHERE o.${Y2024} GROUP BY 1 ORDER BY v ASC LIMIT 5`)),
  ask('Which region had the least snowfall in 2024?', 'en', ['bottom_n', 'joined_value', 'period'], ranked(`SELECT s.region, sum(o.snowfall_mm) AS v FROM ${OBS} WHERE o.${Y2024} GROUP BY 1 ORDER BY v ASC LIMIT 1`)),
  ask('Top 3 stations by frost days in 2024', 'en', ['top_n', 'joined_value', 'period'], ranked(`SELECT s.name, count(*) FILTER (WHERE o.temp_min_c < 0) AS v FROM ${OBS} WHERE o.${Y2024} GROUP BY 1 ORDER BY v DESC LIMIT 3`)),
  ask('which station recorded the highest temperature in 2024', 'en', ['top_n', 'verb', 'joined_value', 'period'], ranked(`SELECT s.name, max(o.temp_max_c) AS v FROM ${OBS} WHERE o.${Y2024} GROUP BY 1 ORDER BY v DESC LIMIT 1`)),
  ask('the 2 sky conditions with the fewest days in 2024', 'en', ['bottom_n', 'null_group', 'period'], ranked(`SELECT condition, count(*) AS n FROM weather.observations WHERE condition IS NOT NULL AND ${Y2024} GROUP BY 1 ORDER BY n ASC LIMIT 2`)),
  ask('which operator runs the most stations', 'en', ['top_n', 'verb', 'snapshot', 'no_period'], ranked(`SELECT operator, count(*) AS n FROM weather.stations WHERE operator IS NOT NULL GROUP BY 1 ORDER BY n DESC LIMIT 1`)),

  // Periods: halves, ranges, "since", in five languages
  ask('rainfall in the first half of 2024', 'en', ['period_half'], value(`SELECT sum(rainfall_mm) FROM weather.observations WHERE observed_on >= DATE '2024-01-01' AND observed_on < DATE '2024-07-01'`)),
  ask('average temperature H2 2024', 'en', ['period_half'], value(`SELECT avg(temp_mean_c) FROM weather.observations WHERE observed_on >= DATE '2024-07-01' AND observed_on < DATE '2025-01-01'`)),
  ask('rainfall from January to June 2024', 'en', ['period_range'], value(`SELECT sum(rainfall_mm) FROM weather.observations WHERE observed_on >= DATE '2024-01-01' AND observed_on < DATE '2024-07-01'`)),
  ask('snowfall between March and May', 'en', ['period_range'], value(`SELECT sum(snowfall_mm) FROM weather.observations WHERE observed_on >= DATE '2025-03-01' AND observed_on < DATE '2025-06-01'`)),
  ask('frost days since March 2024', 'en', ['period_range'], value(`SELECT count(*) FROM weather.observations WHERE temp_min_c < 0 AND observed_on >= DATE '2024-03-01' AND observed_on < DATE '2025-06-19'`)),
  ask('lluvia total en el primer semestre de 2024', 'es', ['period_half', 'synonym'], value(`SELECT sum(rainfall_mm) FROM weather.observations WHERE observed_on >= DATE '2024-01-01' AND observed_on < DATE '2024-07-01'`)),
  ask('température moyenne au premier semestre 2024', 'fr', ['period_half', 'synonym'], value(`SELECT avg(temp_mean_c) FROM weather.observations WHERE observed_on >= DATE '2024-01-01' AND observed_on < DATE '2024-07-01'`)),
  ask('Niederschlag von Januar bis Juni 2024', 'de', ['period_range', 'synonym'], value(`SELECT sum(rainfall_mm) FROM weather.observations WHERE observed_on >= DATE '2024-01-01' AND observed_on < DATE '2024-07-01'`)),
  ask('temperatura média desde março de 2024', 'pt', ['period_range', 'synonym'], value(`SELECT avg(temp_mean_c) FROM weather.observations WHERE observed_on >= DATE '2024-03-01' AND observed_on < DATE '2025-06-19'`)),
  ask('días de helada en 2024', 'es', ['period', 'synonym'], value(`SELECT count(*) FROM weather.observations WHERE temp_min_c < 0 AND ${Y2024}`)),
  ask('Durchschnittstemperatur im zweiten Halbjahr 2024', 'de', ['period_half', 'synonym'], value(`SELECT avg(temp_mean_c) FROM weather.observations WHERE observed_on >= DATE '2024-07-01' AND observed_on < DATE '2025-01-01'`)),

  // Must be declined
  decline('What is the UV index in Phoenix Sky Harbor?', 'en', [], 'out_of_scope', 'no UV measurement'),
  decline('Will it rain tomorrow in Seattle Harbor?', 'en', [], 'out_of_scope', 'a forecast, not a measurement'),
  decline('air quality index by station last month', 'en', ['period'], 'out_of_scope', 'no air quality measurement'),
  decline('How much did sea level rise last year?', 'en', ['period'], 'out_of_scope', 'no sea level measurement'),
  decline('rainfall on days warmer than 20 °C in 2024', 'en', ['period'], 'inexpressible', 'a numeric threshold on temperature'),
  decline('rainfall at stations above 1000 m in 2024', 'en', ['period'], 'inexpressible', 'a numeric threshold on elevation'),
  decline('average temperature difference between Boulder and Nome in 2024', 'en', ['period'], 'inexpressible', 'a difference of two filtered numbers'),
];
