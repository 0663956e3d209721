// Questions of the grid model (meter reads), by defect class.
import { answered, declined, type DefectCase } from '../cases.js';

const Y2024 = `read_on >= DATE '2024-01-01' AND read_on < DATE '2025-01-01'`;
const R = 'grid.meter_reads';

export const GRID_CASES: readonly DefectCase[] = [
  // A label spelled out whole claims its words: "reads" inside "estimated reads" is not the
  // "readings" of Meter reads, whose synonym "visits" stands elsewhere.
  answered('label_beside_synonym', 'How many estimated reads came from visits in Austin in 2024?', ['filter', 'synonym'], `SELECT count(*) FILTER (WHERE estimated = 1) FROM ${R} WHERE city = 'Austin' AND ${Y2024}`),
  answered('label_beside_synonym', 'average read of visits in 2024', ['simple', 'synonym'], `SELECT avg(kwh) FROM ${R} WHERE ${Y2024}`),
  answered('label_beside_synonym', 'estimated reads from visits to Salem in 2024', ['filter', 'synonym'], `SELECT count(*) FILTER (WHERE estimated = 1) FROM ${R} WHERE city = 'Salem' AND ${Y2024}`),

  // Everyday words that are values: "Reading" the city, "Heat" the retailer.
  answered('everyday_value', 'meter reads in Reading in 2024', ['filter'], `SELECT count(*) FROM ${R} WHERE city = 'Reading' AND ${Y2024}`),
  answered('everyday_value', 'How many readings were taken in Reading last month?', ['filter', 'verb'], `SELECT count(*) FROM ${R} WHERE city = 'Reading' AND read_on >= DATE '2025-05-01' AND read_on < DATE '2025-06-01'`),
  answered('everyday_value', 'What was the peak draw reading in March 2025?', ['simple'], `SELECT max(kwh) FROM ${R} WHERE read_on >= DATE '2025-03-01' AND read_on < DATE '2025-04-01'`),
  answered('everyday_value', 'energy used for Heat in 2024', ['filter'], `SELECT sum(kwh) FROM ${R} WHERE retailer = 'Heat' AND ${Y2024}`),
  declined('everyday_value', 'energy used for heating in 2024', 'inexpressible', 'heating is not the retailer Heat, and nothing in the model tells energy used for heating apart'),
  // A ratio, not energy used in Reading: energy used per meter read.
  answered('everyday_value', 'energy used per reading in 2024', ['simple'], `SELECT sum(kwh) / count(*) FROM ${R} WHERE ${Y2024}`),

  // Adjectives and full names of stored values.
  answered('value_forms', 'energy used in sunny weather in 2024', ['filter', 'derived_form'], `SELECT sum(kwh) FROM ${R} WHERE sky = 'sun' AND ${Y2024}`),
  answered('value_forms', 'meter reads in hazy weather in 2024', ['filter', 'derived_form'], `SELECT count(*) FROM ${R} WHERE sky = 'haze' AND ${Y2024}`),
  answered('value_forms', 'average read in the northern region in 2024', ['filter', 'derived_form'], `SELECT avg(kwh) FROM ${R} WHERE region = 'North' AND ${Y2024}`),
  answered('value_forms', 'energy used in the western region in 2024', ['filter', 'derived_form'], `SELECT sum(kwh) FROM ${R} WHERE region = 'West' AND ${Y2024}`),
  answered('value_forms', 'energy used in California last month', ['filter', 'derived_form'], `SELECT sum(kwh) FROM ${R} WHERE state = 'CA' AND read_on >= DATE '2025-05-01' AND read_on < DATE '2025-06-01'`),
  answered('value_forms', 'Canadian energy consumption in 2024', ['filter', 'derived_form', 'synonym'], `SELECT sum(kwh) FROM ${R} WHERE country = 'Canada' AND ${Y2024}`),
  answered('value_forms', 'peak draw in stormy weather in Q1 2025', ['filter', 'derived_form'], `SELECT max(kwh) FROM ${R} WHERE sky = 'storm' AND read_on >= DATE '2025-01-01' AND read_on < DATE '2025-04-01'`),
  answered('value_forms', 'meter reads in New York in 2024', ['filter', 'multi_word_value'], `SELECT count(*) FROM ${R} WHERE state = 'NY' AND ${Y2024}`),

  // Declines must quote only what the question says.
  declined('decline_quotes', '¿Cuánta energía usaron en Reading?', 'out_of_scope', 'no Spanish words in the model'),
  declined('decline_quotes', 'energy used city', 'inexpressible', 'a dimension named without saying how to use it'),
  declined('decline_quotes', 'top 3 energy used', 'inexpressible', 'a top 3 of nothing'),
  declined('decline_quotes', 'estimated reads across all readings in 2024', 'inexpressible', 'one metric per another'),

  // Measurement words: grounded by the metric's description or unit, else a synonym to add.
  answered('measurement_words', 'How much energy was drawn in 2024?', ['simple', 'verb'], `SELECT sum(kwh) FROM ${R} WHERE ${Y2024}`),
  answered('measurement_words', 'energy used in kWh last month', ['simple'], `SELECT sum(kwh) FROM ${R} WHERE read_on >= DATE '2025-05-01' AND read_on < DATE '2025-06-01'`),
  declined('measurement_words', 'How much energy did Orange consume in 2024?', 'out_of_scope', 'the model does not say that energy used is consumed', { metric: 'energy_used', synonym: 'consume' }),
  declined('measurement_words', 'How much energy did Buffalo burn in 2024?', 'out_of_scope', 'the model does not say that energy used is burnt', { metric: 'energy_used', synonym: 'burn' }),
  declined('measurement_words', 'How many meter reads did we collect in Austin in 2024?', 'out_of_scope', 'the model does not say that reads are collected', { metric: 'meter_reads', synonym: 'collect' }),
];
