// Questions a freight broker's operations and finance people ask, with the answer as SQL over the
// warehouse. Now is 2025-06-18 15:00 UTC; a question without a period means the last 30 complete days
// (2025-05-19 to 2025-06-18), as documented; states of things "right now" are over every row.
import { ask, decline, ranked, rows, value } from '../question-helpers.js';
import type { UnseenQuestion } from '../types.js';

const Y2024 = `shipped_at >= TIMESTAMP '2024-01-01' AND shipped_at < TIMESTAMP '2025-01-01'`;
const ON_TIME = `count(*) FILTER (WHERE status = 'delivered' AND transit_minutes <= promised_minutes) * 1.0 / nullif(count(*) FILTER (WHERE status = 'delivered'), 0)`;

export const FREIGHT_QUESTIONS: readonly UnseenQuestion[] = [
  // Simple metrics
  ask('How many shipments did we send last month?', 'en', ['simple', 'verb', 'period'], value(`SELECT count(*) FROM freight.shipments WHERE shipped_at >= TIMESTAMP '2025-05-01' AND shipped_at < TIMESTAMP '2025-06-01'`)),
  ask('Total freight cost in 2024', 'en', ['simple', 'period'], value(`SELECT sum(cost_usd) FROM freight.shipments WHERE ${Y2024}`)),
  ask('What was our on-time delivery rate in Q1 2025?', 'en', ['simple', 'period'], value(`SELECT ${ON_TIME} FROM freight.shipments WHERE shipped_at >= TIMESTAMP '2025-01-01' AND shipped_at < TIMESTAMP '2025-04-01'`)),
  ask('average transit time last quarter', 'en', ['simple', 'period'], value(`SELECT avg(transit_minutes) FROM freight.shipments WHERE shipped_at >= TIMESTAMP '2025-01-01' AND shipped_at < TIMESTAMP '2025-04-01'`)),
  ask('How much weight did we ship this year?', 'en', ['simple', 'verb', 'period'], value(`SELECT sum(weight_kg) FROM freight.shipments WHERE shipped_at >= TIMESTAMP '2025-01-01' AND shipped_at < TIMESTAMP '2025-06-19'`)),
  ask('cost per kg in 2024', 'en', ['simple', 'period'], value(`SELECT sum(cost_usd) / nullif(sum(weight_kg), 0) FROM freight.shipments WHERE ${Y2024}`)),
  ask('How many carriers do we work with?', 'en', ['simple', 'snapshot', 'no_period', 'verb'], value(`SELECT count(*) FROM freight.carriers`)),
  ask('kilometres driven last year', 'en', ['simple', 'synonym', 'verb', 'period'], value(`SELECT sum(distance_km) FROM freight.shipments WHERE ${Y2024}`)),
  ask('How many packages were shipped in March 2025?', 'en', ['simple', 'verb', 'period'], value(`SELECT sum(packages) FROM freight.shipments WHERE shipped_at >= TIMESTAMP '2025-03-01' AND shipped_at < TIMESTAMP '2025-04-01'`)),
  ask('late shipments last week', 'en', ['simple', 'period'], value(`SELECT count(*) FROM freight.shipments WHERE status = 'delivered' AND transit_minutes > promised_minutes AND shipped_at >= TIMESTAMP '2025-06-09' AND shipped_at < TIMESTAMP '2025-06-16'`)),

  // Breakdowns
  ask('freight cost by carrier in 2024', 'en', ['breakdown', 'joined_value', 'period'], rows(`SELECT c.name, sum(s.cost_usd) FROM freight.shipments s JOIN freight.carriers c ON c.id = s.carrier_id WHERE s.${Y2024} GROUP BY 1`)),
  ask('shipments by service level last month', 'en', ['breakdown', 'period'], rows(`SELECT service_level, count(*) FROM freight.shipments WHERE shipped_at >= TIMESTAMP '2025-05-01' AND shipped_at < TIMESTAMP '2025-06-01' GROUP BY 1`)),
  ask('on-time rate per carrier in Q1 2025', 'en', ['breakdown', 'period'], rows(`SELECT c.name, count(*) FILTER (WHERE s.status = 'delivered' AND s.transit_minutes <= s.promised_minutes) * 1.0 / nullif(count(*) FILTER (WHERE s.status = 'delivered'), 0) FROM freight.shipments s JOIN freight.carriers c ON c.id = s.carrier_id WHERE s.shipped_at >= TIMESTAMP '2025-01-01' AND s.shipped_at < TIMESTAMP '2025-04-01' GROUP BY 1`)),
  ask('shipments by commodity in 2024', 'en', ['breakdown', 'null_group', 'period'], rows(`SELECT commodity, count(*) FROM freight.shipments WHERE ${Y2024} GROUP BY 1`)),
  ask('average transit time by destination state in 2024', 'en', ['breakdown', 'direction', 'period'], rows(`SELECT s.dest_state, st.name, avg(s.transit_minutes) FROM freight.shipments s JOIN freight.states st ON st.code = s.dest_state WHERE s.${Y2024} GROUP BY 1, 2`)),
  ask('freight cost by month in 2024', 'en', ['breakdown', 'time_grain', 'period'], rows(`SELECT strftime(date_trunc('month', shipped_at), '%Y-%m-%d'), sum(cost_usd) FROM freight.shipments WHERE ${Y2024} GROUP BY 1`)),
  ask('Shipped weight by origin region in 2024', 'en', ['breakdown', 'joined_value', 'direction', 'period'], rows(`SELECT st.region, sum(s.weight_kg) FROM freight.shipments s JOIN freight.states st ON st.code = s.origin_state WHERE s.${Y2024} GROUP BY 1`)),

  // Filters on values, with direction
  ask('How many shipments went to OR in 2024?', 'en', ['filter', 'stop_word_value', 'direction', 'verb', 'period'], value(`SELECT count(*) FROM freight.shipments WHERE dest_state = 'OR' AND ${Y2024}`)),
  ask('shipments from IN last year', 'en', ['filter', 'stop_word_value', 'direction', 'period'], value(`SELECT count(*) FROM freight.shipments WHERE origin_state = 'IN' AND ${Y2024}`)),
  ask('freight cost of shipments from CA to DE in 2024', 'en', ['filter', 'stop_word_value', 'direction', 'period'], value(`SELECT sum(cost_usd) FROM freight.shipments WHERE origin_state = 'CA' AND dest_state = 'DE' AND ${Y2024}`)),
  ask('shipments to ME last year', 'en', ['filter', 'stop_word_value', 'direction', 'period'], value(`SELECT count(*) FROM freight.shipments WHERE dest_state = 'ME' AND ${Y2024}`)),
  ask('How many shipments from OR to CA in the first half of 2024?', 'en', ['filter', 'stop_word_value', 'direction', 'period_half'], value(`SELECT count(*) FROM freight.shipments WHERE origin_state = 'OR' AND dest_state = 'CA' AND shipped_at >= TIMESTAMP '2024-01-01' AND shipped_at < TIMESTAMP '2024-07-01'`)),
  ask('shipments into Texas in 2024', 'en', ['filter', 'joined_value', 'direction', 'period'], value(`SELECT count(*) FROM freight.shipments WHERE dest_state = 'TX' AND ${Y2024}`)),
  ask('How many shipments left New York this year?', 'en', ['filter', 'joined_value', 'multi_word_value', 'direction', 'verb', 'period'], value(`SELECT count(*) FROM freight.shipments WHERE origin_state = 'NY' AND shipped_at >= TIMESTAMP '2025-01-01' AND shipped_at < TIMESTAMP '2025-06-19'`)),
  ask('express shipments to new york last month', 'en', ['filter', 'casing', 'joined_value', 'direction', 'period'], value(`SELECT count(*) FROM freight.shipments WHERE service_level = 'Express' AND dest_state = 'NY' AND shipped_at >= TIMESTAMP '2025-05-01' AND shipped_at < TIMESTAMP '2025-06-01'`)),
  ask('How many shipments are in transit right now?', 'en', ['filter', 'multi_word_value', 'snapshot', 'no_period'], value(`SELECT count(*) FROM freight.shipments WHERE status = 'in transit'`)),
  ask('Freight cost for Blue Ridge Freight in 2024', 'en', ['filter', 'joined_value', 'multi_word_value', 'period'], value(`SELECT sum(s.cost_usd) FROM freight.shipments s JOIN freight.carriers c ON c.id = s.carrier_id WHERE c.name = 'Blue Ridge Freight' AND s.${Y2024}`)),
  ask('on-time rate of rail shipments in 2024', 'en', ['filter', 'joined_value', 'period'], value(`SELECT count(*) FILTER (WHERE s.status = 'delivered' AND s.transit_minutes <= s.promised_minutes) * 1.0 / nullif(count(*) FILTER (WHERE s.status = 'delivered'), 0) FROM freight.shipments s JOIN freight.carriers c ON c.id = s.carrier_id WHERE c.mode = 'rail' AND s.${Y2024}`)),
  ask('shipments departing from Delaware in 2024', 'en', ['filter', 'joined_value', 'direction', 'verb', 'period'], value(`SELECT count(*) FROM freight.shipments WHERE origin_state = 'DE' AND ${Y2024}`)),
  ask('How many shipments to IN were picked up in May 2025?', 'en', ['filter', 'stop_word_value', 'direction', 'verb', 'period'], value(`SELECT count(*) FROM freight.shipments WHERE dest_state = 'IN' AND shipped_at >= TIMESTAMP '2025-05-01' AND shipped_at < TIMESTAMP '2025-06-01'`)),
  ask('How many shipments were returned in 2024?', 'en', ['filter', 'verb', 'period'], value(`SELECT count(*) FROM freight.shipments WHERE status = 'returned' AND ${Y2024}`)),
  ask('weight of frozen food shipments in H2 2024', 'en', ['filter', 'casing', 'multi_word_value', 'period_half'], value(`SELECT sum(weight_kg) FROM freight.shipments WHERE commodity = 'Frozen Food' AND shipped_at >= TIMESTAMP '2024-07-01' AND shipped_at < TIMESTAMP '2025-01-01'`)),
  ask('freight cost of shipments within Texas in 2024', 'en', ['filter', 'joined_value', 'direction', 'period'], value(`SELECT sum(cost_usd) FROM freight.shipments WHERE origin_state = 'TX' AND dest_state = 'TX' AND ${Y2024}`)),
  ask('freight cost excluding Express in 2024', 'en', ['filter', 'period'], value(`SELECT sum(cost_usd) FROM freight.shipments WHERE service_level <> 'Express' AND ${Y2024}`)),

  // Top-N and bottom-N (a NULL group is not a member)
  ask('Which 3 carriers had the most late shipments in 2024?', 'en', ['top_n', 'joined_value', 'period'], ranked(`SELECT c.name, count(*) AS n FROM freight.shipments s JOIN freight.carriers c ON c.id = s.carrier_id WHERE s.status = 'delivered' AND s.transit_minutes > s.promised_minutes AND s.${Y2024} GROUP BY 1 ORDER BY n DESC LIMIT 3`)),
  ask('top 5 destination states by freight cost last year', 'en', ['top_n', 'direction', 'period'], ranked(`SELECT s.dest_state, st.name, sum(s.cost_usd) AS v FROM freight.shipments s JOIN freight.states st ON st.code = s.dest_state WHERE s.${Y2024} GROUP BY 1, 2 ORDER BY v DESC LIMIT 5`)),
  ask('the 5 origin states with the lowest on-time rate in 2024', 'en', ['bottom_n', 'direction', 'period'], ranked(`SELECT s.origin_state, st.name, ${ON_TIME} AS v FROM freight.shipments s JOIN freight.states st ON st.code = s.origin_state WHERE s.${Y2024} GROUP BY 1, 2 ORDER BY v ASC LIMIT 5`)),
  ask('Which commodity had the fewest shipments in 2024?', 'en', ['bottom_n', 'null_group', 'period'], ranked(`SELECT commodity, count(*) AS n FROM freight.shipments WHERE commodity IS NOT NULL AND ${Y2024} GROUP BY 1 ORDER BY n ASC LIMIT 1`)),
  ask('Top 3 commodities by shipped weight in 2024', 'en', ['top_n', 'null_group', 'period'], ranked(`SELECT commodity, sum(weight_kg) AS v FROM freight.shipments WHERE commodity IS NOT NULL AND ${Y2024} GROUP BY 1 ORDER BY v DESC LIMIT 3`)),
  ask('which carrier moved the least weight in Q1 2025', 'en', ['bottom_n', 'verb', 'joined_value', 'period'], ranked(`SELECT c.name, sum(s.weight_kg) AS v FROM freight.shipments s JOIN freight.carriers c ON c.id = s.carrier_id WHERE s.shipped_at >= TIMESTAMP '2025-01-01' AND s.shipped_at < TIMESTAMP '2025-04-01' GROUP BY 1 ORDER BY v ASC LIMIT 1`)),
  ask('the 3 service levels with the highest cost per kg in 2024', 'en', ['top_n', 'period'], ranked(`SELECT service_level, sum(cost_usd) / nullif(sum(weight_kg), 0) AS v FROM freight.shipments WHERE ${Y2024} GROUP BY 1 ORDER BY v DESC LIMIT 3`)),

  // Periods: halves, ranges, "since", in five languages
  ask('shipments in the first half of 2024', 'en', ['period_half'], value(`SELECT count(*) FROM freight.shipments WHERE shipped_at >= TIMESTAMP '2024-01-01' AND shipped_at < TIMESTAMP '2024-07-01'`)),
  ask('freight cost H2 2024', 'en', ['period_half'], value(`SELECT sum(cost_usd) FROM freight.shipments WHERE shipped_at >= TIMESTAMP '2024-07-01' AND shipped_at < TIMESTAMP '2025-01-01'`)),
  ask('How many shipments from January to June 2024?', 'en', ['period_range'], value(`SELECT count(*) FROM freight.shipments WHERE shipped_at >= TIMESTAMP '2024-01-01' AND shipped_at < TIMESTAMP '2024-07-01'`)),
  ask('freight cost between March and May', 'en', ['period_range'], value(`SELECT sum(cost_usd) FROM freight.shipments WHERE shipped_at >= TIMESTAMP '2025-03-01' AND shipped_at < TIMESTAMP '2025-06-01'`)),
  ask('packages since March 2024', 'en', ['period_range'], value(`SELECT sum(packages) FROM freight.shipments WHERE shipped_at >= TIMESTAMP '2024-03-01' AND shipped_at < TIMESTAMP '2025-06-19'`)),
  ask('¿Cuántos envíos hubo en el primer semestre de 2024?', 'es', ['period_half'], value(`SELECT count(*) FROM freight.shipments WHERE shipped_at >= TIMESTAMP '2024-01-01' AND shipped_at < TIMESTAMP '2024-07-01'`)),
  ask('Frachtkosten im ersten Halbjahr 2024', 'de', ['period_half'], value(`SELECT sum(cost_usd) FROM freight.shipments WHERE shipped_at >= TIMESTAMP '2024-01-01' AND shipped_at < TIMESTAMP '2024-07-01'`)),
  ask('remessas de janeiro a junho de 2024', 'pt', ['period_range'], value(`SELECT count(*) FROM freight.shipments WHERE shipped_at >= TIMESTAMP '2024-01-01' AND shipped_at < TIMESTAMP '2024-07-01'`)),
  ask('coût de transport depuis mars 2024', 'fr', ['period_range'], value(`SELECT sum(cost_usd) FROM freight.shipments WHERE shipped_at >= TIMESTAMP '2024-03-01' AND shipped_at < TIMESTAMP '2025-06-19'`)),
  ask('costo de flete entre marzo y mayo de 2025', 'es', ['period_range'], value(`SELECT sum(cost_usd) FROM freight.shipments WHERE shipped_at >= TIMESTAMP '2025-03-01' AND shipped_at < TIMESTAMP '2025-06-01'`)),
  ask("Combien d'expéditions au deuxième semestre 2024 ?", 'fr', ['period_half'], value(`SELECT count(*) FROM freight.shipments WHERE shipped_at >= TIMESTAMP '2024-07-01' AND shipped_at < TIMESTAMP '2025-01-01'`)),

  // Ordinary verbs and derived forms
  ask('How many shipments were delivered late last month?', 'en', ['verb', 'derived_form', 'period'], value(`SELECT count(*) FROM freight.shipments WHERE status = 'delivered' AND transit_minutes > promised_minutes AND shipped_at >= TIMESTAMP '2025-05-01' AND shipped_at < TIMESTAMP '2025-06-01'`)),
  ask('How many shipments were delivered in 2024?', 'en', ['verb', 'derived_form', 'period'], value(`SELECT count(*) FROM freight.shipments WHERE status = 'delivered' AND ${Y2024}`)),

  // Must be declined
  decline('What is the average driver salary?', 'en', [], 'out_of_scope', 'no payroll data'),
  decline('fuel consumption per truck last month', 'en', ['period'], 'out_of_scope', 'no fuel or vehicle data'),
  decline('What will our freight cost be next month?', 'en', ['period'], 'out_of_scope', 'a forecast, not a measurement'),
  decline('customer satisfaction score for Cascade Lines in 2024', 'en', ['period'], 'out_of_scope', 'no satisfaction metric'),
  decline('shipments heavier than 500 kg in 2024', 'en', ['period'], 'inexpressible', 'a numeric threshold on weight'),
  decline('on-time rate for shipments that travelled more than 1000 km in 2024', 'en', ['period'], 'inexpressible', 'a numeric threshold on distance'),
  decline('shipments between OR and CA in 2024', 'en', ['stop_word_value', 'direction', 'period'], 'ambiguous', 'either direction, or both: the roles of OR and CA are not given'),
  decline('How many shipments involved Texas in 2024?', 'en', ['direction', 'period'], 'ambiguous', 'Texas as origin, destination or either'),
];
