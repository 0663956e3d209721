// Questions of the supply model (deliveries to retail chains), by defect class.
import { answered, declined, type DefectCase } from '../cases.js';

const Y2024 = `delivered_on >= DATE '2024-01-01' AND delivered_on < DATE '2025-01-01'`;
const Q1_2025 = `delivered_on >= DATE '2025-01-01' AND delivered_on < DATE '2025-04-01'`;
const D = 'supply.deliveries';

export const SUPPLY_CASES: readonly DefectCase[] = [
  // A label spelled out whole claims its words: "drop" inside "average drop size" is not the
  // "drops" of Deliveries, named elsewhere by its own label.
  answered('label_beside_synonym', 'average drop size of deliveries to Target in 2024', ['filter'], `SELECT sum(cases_n) / count(*) FROM ${D} WHERE retailer = 'Target' AND ${Y2024}`),
  answered('label_beside_synonym', 'What was the average drop size of deliveries in May 2025?', ['simple'], `SELECT sum(cases_n) / count(*) FROM ${D} WHERE delivered_on >= DATE '2025-05-01' AND delivered_on < DATE '2025-06-01'`),
  answered('label_beside_synonym', 'What was the average drop size for store deliveries in Q1 2025?', ['simple'], `SELECT sum(cases_n) / count(*) FROM ${D} WHERE ${Q1_2025}`),

  // "Target" the chain beside the case target.
  answered('everyday_value', 'case target for Target in 2024', ['filter'], `SELECT sum(target_n) FROM ${D} WHERE retailer = 'Target' AND ${Y2024}`),
  answered('everyday_value', 'What was the volume target for Target in Q1 2025?', ['filter', 'synonym'], `SELECT sum(target_n) FROM ${D} WHERE retailer = 'Target' AND ${Q1_2025}`),
  answered('everyday_value', "Target's case target in 2024", ['filter'], `SELECT sum(target_n) FROM ${D} WHERE retailer = 'Target' AND ${Y2024}`),
  answered('everyday_value', 'What was our case target for 2024?', ['simple'], `SELECT sum(target_n) FROM ${D} WHERE ${Y2024}`),
  declined('everyday_value', 'deliveries below target in 2024', 'inexpressible', 'a comparison with the target'),
  declined('everyday_value', 'cases shipped on target in 2024', 'inexpressible', '"on target" is not the chain Target'),

  // Full names, demonyms and the model's own words for stored values.
  answered('value_forms', 'volume target in Texas in 2024', ['filter', 'derived_form', 'synonym'], `SELECT sum(target_n) FROM ${D} WHERE store_state = 'TX' AND ${Y2024}`),
  answered('value_forms', 'domestic cases shipped in 2024', ['filter', 'synonym'], `SELECT sum(cases_n) FROM ${D} WHERE origin = 'United States' AND ${Y2024}`),
  answered('value_forms', 'invoiced sales of Italian origin in 2024', ['filter', 'derived_form'], `SELECT sum(invoice) FROM ${D} WHERE origin = 'Italy' AND ${Y2024}`),
  answered('value_forms', 'late deliveries in Florida in 2024', ['filter', 'derived_form'], `SELECT count(*) FILTER (WHERE late = 1) FROM ${D} WHERE store_state = 'FL' AND ${Y2024}`),
  answered('value_forms', 'volume of Mexican snacks in 2024', ['filter', 'derived_form'], `SELECT sum(cases_n) FROM ${D} WHERE origin = 'Mexico' AND product_line = 'Snacks' AND ${Y2024}`),
  answered('value_forms', 'Japanese invoiced sales in Q1 2025', ['filter', 'derived_form'], `SELECT sum(invoice) FROM ${D} WHERE origin = 'Japan' AND ${Q1_2025}`),

  // Declines must quote only what the question says.
  declined('decline_quotes', 'What did the plan call for in 2024?', 'out_of_scope', 'a metric recognised only from its description'),
  declined('decline_quotes', 'Wie viele Lieferungen gingen 2024 nach Köln?', 'out_of_scope', 'no German words in the model', undefined, 'de'),
  declined('decline_quotes', 'Combien de livraisons à Québec en 2024 ?', 'out_of_scope', 'no French words in the model', undefined, 'fr'),
  declined('decline_quotes', 'deliveries state', 'inexpressible', 'a dimension named without saying how to use it'),

  // Measurement words: grounded by the metric's description or unit, else a synonym to add.
  answered('measurement_words', 'invoiced sales in dollars in 2024', ['simple'], `SELECT sum(invoice) FROM ${D} WHERE ${Y2024}`),
  answered('measurement_words', 'late deliveries that reached Publix in Q1 2025', ['filter', 'verb'], `SELECT count(*) FILTER (WHERE late = 1) FROM ${D} WHERE retailer = 'Publix' AND ${Q1_2025}`),
  declined('measurement_words', 'invoiced sales in euros in 2024', 'inexpressible', 'the sales are in US dollars; no conversion'),
  declined('measurement_words', 'How much volume did we move in 2024?', 'out_of_scope', 'the model does not say that volume is moved', { metric: 'cases_shipped', synonym: 'move' }),
  declined('measurement_words', 'How much volume did we haul to Kroger in 2024?', 'out_of_scope', 'the model does not say that volume is hauled', { metric: 'cases_shipped', synonym: 'haul' }),
  declined('measurement_words', 'How many deliveries did we drive to Meijer in 2024?', 'out_of_scope', 'the model does not say that deliveries are driven', { metric: 'deliveries', synonym: 'drive' }),
];
