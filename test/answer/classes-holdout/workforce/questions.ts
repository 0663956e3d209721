// HELD BACK from planner development: nobody changing the question planner reads this file. Its
// figures are reported apart, as a check on classes learnt elsewhere.
//
// Questions the people team asks about internal mobility, about eight per class, with the answer as
// SQL over the warehouse. Periods as in ../../classes/periods.ts, by effective date. A share is a
// fraction from 0 to 1. A negation keeps the rows without a value (a move with no recorded reason was
// not made for a reorganisation), as the semantic layer's negated filters do (docs/queries.md).
import { P, within, type Period } from '../../classes/periods.js';
import { ask, compared, decline, rows, shares, value } from '../../unseen/question-helpers.js';
import type { UnseenQuestion } from '../../unseen/types.js';

const JOINED = 'hr.moves m JOIN hr.departments f ON f.id = m.from_department_id JOIN hr.departments t ON t.id = m.to_department_id';
const at = (period: Period): string => within('moved_on', 'DATE', period);
const atM = (period: Period): string => within('m.moved_on', 'DATE', period);
const moves = (select: string, where: string): string => `SELECT ${select} FROM hr.moves WHERE ${where}`;
const joined = (select: string, where: string): string => `SELECT ${select} FROM ${JOINED} WHERE ${where}`;
const INCREASE = 'sum(salary_after - salary_before)';
const PROMOTIONS = `count(*) FILTER (WHERE kind = 'promotion')`;

export const WORKFORCE_QUESTIONS: readonly UnseenQuestion[] = [
  // Comparisons of two periods
  ask('How many more internal moves were there in 2024 than in 2023?', 'en', ['comparison', 'period'], compared(moves('count(*)', at(P.y2024)), moves('count(*)', at(P.y2023)))),
  ask('change in promotions from Q1 to Q2 2025', 'en', ['comparison', 'period'], compared(moves(PROMOTIONS, at(P.q2_2025)), moves(PROMOTIONS, at(P.q1_2025)))),
  ask('salary increase this year vs last year', 'en', ['comparison', 'period'], compared(moves(INCREASE, at(P.ytd2025)), moves(INCREASE, at(P.ytd2024)))),
  ask('growth of internal moves last month', 'en', ['comparison', 'period'], compared(moves('count(*)', at(P.may2025)), moves('count(*)', at(P.apr2025)))),
  ask('promotions in April 2025 compared to the same month last year', 'en', ['comparison', 'period'], compared(moves(PROMOTIONS, at(P.apr2025)), moves(PROMOTIONS, at(P.apr2024)))),
  ask('How did the promotion rate change between 2023 and 2024?', 'en', ['comparison', 'period'], compared(moves(`${PROMOTIONS} * 1.0 / count(*)`, at(P.y2024)), moves(`${PROMOTIONS} * 1.0 / count(*)`, at(P.y2023)))),
  ask('employees moved last quarter versus the quarter before', 'en', ['comparison', 'period'], compared(moves('count(DISTINCT employee_id)', at(P.q1_2025)), moves('count(DISTINCT employee_id)', at(P.q4_2024)))),
  decline('promotions this year compared with the industry average', 'en', ['comparison', 'period'], 'out_of_scope', 'no industry figures in the model'),

  // Shares of a total
  ask('What share of moves in 2024 were promotions?', 'en', ['share', 'period'], value(moves(`${PROMOTIONS} * 1.0 / count(*)`, at(P.y2024)))),
  ask('What percentage of internal moves last year were in Berlin?', 'en', ['share', 'period'], value(moves(`count(*) FILTER (WHERE office = 'Berlin') * 1.0 / count(*)`, at(P.y2024)))),
  ask('share of each move type in internal moves in 2024', 'en', ['share', 'breakdown', 'period'], shares(moves('kind, count(*) / sum(count(*)) OVER ()', `${at(P.y2024)} GROUP BY 1`))),
  ask('What fraction of the salary increase in 2024 went to people joining Engineering?', 'en', ['share', 'direction_verb', 'period'], value(joined(`sum(m.salary_after - m.salary_before) FILTER (WHERE t.name = 'Engineering') / sum(m.salary_after - m.salary_before)`, atM(P.y2024)))),
  ask('share of internal moves by office this year', 'en', ['share', 'breakdown', 'period'], shares(moves('office, count(*) / sum(count(*)) OVER ()', `${at(P.ytd2025)} GROUP BY 1`))),
  ask('percentage of moves in 2024 made for career growth', 'en', ['share', 'multi_word_value', 'period'], value(moves(`count(*) FILTER (WHERE reason = 'career growth') * 1.0 / count(*)`, at(P.y2024)))),
  ask('share of each reason in internal moves in 2024', 'en', ['share', 'breakdown', 'null_group', 'period'], shares(moves('reason, count(*) / sum(count(*)) OVER ()', `${at(P.y2024)} GROUP BY 1`))),
  decline('What share of employees left the company in 2024?', 'en', ['share', 'period'], 'out_of_scope', 'no departures or headcount in the model'),

  // One metric per another
  ask('salary increase per move in 2024', 'en', ['per', 'period'], value(moves(`${INCREASE} / count(*)`, at(P.y2024)))),
  ask('moves per employee moved in 2024', 'en', ['per', 'period'], value(moves('count(*) * 1.0 / count(DISTINCT employee_id)', at(P.y2024)))),
  ask('salary increase per employee moved last year', 'en', ['per', 'period'], value(moves(`${INCREASE} / count(DISTINCT employee_id)`, at(P.y2024)))),
  ask('salary increase per move by office in 2024', 'en', ['per', 'breakdown', 'period'], rows(moves(`office, ${INCREASE} / count(*)`, `${at(P.y2024)} GROUP BY 1`))),
  ask('salary increase per internal move in Q1 2025', 'en', ['per', 'period'], value(moves(`${INCREASE} / count(*)`, at(P.q1_2025)))),
  ask('salary increase per move for each move type in 2024', 'en', ['per', 'breakdown', 'period'], rows(moves(`kind, ${INCREASE} / count(*)`, `${at(P.y2024)} GROUP BY 1`))),
  decline('promotion rate per division in 2024', 'en', ['per', 'period'], 'ambiguous', 'the division moved from or the division moved to'),
  decline('salary increase per head of headcount in 2024', 'en', ['per', 'period'], 'out_of_scope', 'no headcount in the model'),

  // Negation
  ask('internal moves in 2024 excluding relocations', 'en', ['negation', 'derived_form', 'period'], value(moves('count(*)', `kind <> 'relocation' AND ${at(P.y2024)}`))),
  ask('salary increase in 2024 except the Berlin office', 'en', ['negation', 'period'], value(moves(INCREASE, `office <> 'Berlin' AND ${at(P.y2024)}`))),
  ask('How many moves in 2024 were not promotions?', 'en', ['negation', 'period'], value(moves('count(*)', `kind <> 'promotion' AND ${at(P.y2024)}`))),
  ask('internal moves in 2024 for reasons other than reorganisation', 'en', ['negation', 'null_group', 'period'], value(moves('count(*)', `reason IS DISTINCT FROM 'reorganisation' AND ${at(P.y2024)}`))),
  ask('moves into departments other than Sales in 2024', 'en', ['negation', 'direction_verb', 'period'], value(joined('count(*)', `t.name <> 'Sales' AND ${atM(P.y2024)}`))),
  ask('salary increase in Q1 2025 not counting lateral moves', 'en', ['negation', 'period'], value(moves(INCREASE, `kind <> 'lateral' AND ${at(P.q1_2025)}`))),
  decline('internal moves excluding Engineering in 2024', 'en', ['negation', 'period'], 'ambiguous', 'moves out of Engineering, into it, or both'),

  // Several filters
  ask('promotions in Berlin into Engineering in 2024', 'en', ['multi_filter', 'direction_verb', 'period'], value(joined('count(*)', `m.kind = 'promotion' AND m.office = 'Berlin' AND t.name = 'Engineering' AND ${atM(P.y2024)}`))),
  ask('lateral moves from Sales to Marketing in 2024', 'en', ['multi_filter', 'direction_verb', 'period'], value(joined('count(*)', `m.kind = 'lateral' AND f.name = 'Sales' AND t.name = 'Marketing' AND ${atM(P.y2024)}`))),
  ask('salary increase of promotions in Toronto last year', 'en', ['multi_filter', 'period'], value(moves(INCREASE, `kind = 'promotion' AND office = 'Toronto' AND ${at(P.y2024)}`))),
  ask('relocations to the Singapore office for career growth in 2024', 'en', ['multi_filter', 'period'], value(moves('count(*)', `kind = 'relocation' AND office = 'Singapore' AND reason = 'career growth' AND ${at(P.y2024)}`))),
  ask('employees moved out of Customer Support in Austin in Q1 2025', 'en', ['multi_filter', 'direction_verb', 'multi_word_value', 'period'], value(joined('count(DISTINCT m.employee_id)', `f.name = 'Customer Support' AND m.office = 'Austin' AND ${atM(P.q1_2025)}`))),
  ask('promotion rate of moves from Sales in Lisbon in 2024', 'en', ['multi_filter', 'direction_verb', 'period'], value(joined(`count(*) FILTER (WHERE m.kind = 'promotion') * 1.0 / count(*)`, `f.name = 'Sales' AND m.office = 'Lisbon' AND ${atM(P.y2024)}`))),
  ask('lateral moves in Toronto for reorganisation this year', 'en', ['multi_filter', 'period'], value(moves('count(*)', `kind = 'lateral' AND office = 'Toronto' AND reason = 'reorganisation' AND ${at(P.ytd2025)}`))),
  decline('promotions with a raise above 10% in Berlin in 2024', 'en', ['multi_filter', 'period'], 'inexpressible', 'a numeric threshold on the raise'),

  // Verbs that bind a department to the one left or the one joined
  ask('How many employees transferred out of Sales in 2024?', 'en', ['direction_verb', 'period'], value(joined('count(DISTINCT m.employee_id)', `f.name = 'Sales' AND ${atM(P.y2024)}`))),
  ask('internal moves into Engineering last year', 'en', ['direction_verb', 'period'], value(joined('count(*)', `t.name = 'Engineering' AND ${atM(P.y2024)}`))),
  ask('How many employees joined Data from Engineering in 2024?', 'en', ['direction_verb', 'multi_filter', 'period'], value(joined('count(DISTINCT m.employee_id)', `f.name = 'Engineering' AND t.name = 'Data' AND ${atM(P.y2024)}`))),
  ask('moves that left Operations in Q1 2025', 'en', ['direction_verb', 'period'], value(joined('count(*)', `f.name = 'Operations' AND ${atM(P.q1_2025)}`))),
  ask('salary increase of moves arriving in Product in 2024', 'en', ['direction_verb', 'period'], value(joined('sum(m.salary_after - m.salary_before)', `t.name = 'Product' AND ${atM(P.y2024)}`))),
  ask('How many moves went from Finance to Legal in 2024?', 'en', ['direction_verb', 'multi_filter', 'period'], value(joined('count(*)', `f.name = 'Finance' AND t.name = 'Legal' AND ${atM(P.y2024)}`))),
  ask('promotions of people moving to Engineering in 2024', 'en', ['direction_verb', 'period'], value(joined('count(*)', `m.kind = 'promotion' AND t.name = 'Engineering' AND ${atM(P.y2024)}`))),
  decline('moves between Sales and Marketing in 2024', 'en', ['direction_verb', 'period'], 'ambiguous', 'either direction, or both'),
  decline('How many moves involved Finance in 2024?', 'en', ['direction_verb', 'period'], 'ambiguous', 'moves out of Finance, into it, or both'),

  // Other languages, on an English-only model
  ask('¿Cuántos traslados internos hubo en 2024?', 'es', ['foreign_language', 'simple', 'period'], value(moves('count(*)', at(P.y2024)))),
  ask('Quelle part des mouvements internes en 2024 étaient des promotions ?', 'fr', ['foreign_language', 'share', 'period'], value(moves(`${PROMOTIONS} * 1.0 / count(*)`, at(P.y2024)))),
  ask('Gehaltserhöhung pro Wechsel im Jahr 2024', 'de', ['foreign_language', 'per', 'period'], value(moves(`${INCREASE} / count(*)`, at(P.y2024)))),
  ask('Quantas promoções a mais em 2024 do que em 2023?', 'pt', ['foreign_language', 'comparison', 'period'], compared(moves(PROMOTIONS, at(P.y2024)), moves(PROMOTIONS, at(P.y2023)))),
  ask('movimenti interni nel 2024 esclusi i trasferimenti di sede', 'it', ['foreign_language', 'negation', 'period'], value(moves('count(*)', `kind <> 'relocation' AND ${at(P.y2024)}`))),
  ask('Quanti dipendenti sono passati da Sales a Engineering nel 2024?', 'it', ['foreign_language', 'direction_verb', 'multi_filter', 'period'], value(joined('count(DISTINCT m.employee_id)', `f.name = 'Sales' AND t.name = 'Engineering' AND ${atM(P.y2024)}`))),
  ask('promociones en Berlín hacia Engineering en 2024', 'es', ['foreign_language', 'multi_filter', 'direction_verb', 'period'], value(joined('count(*)', `m.kind = 'promotion' AND m.office = 'Berlin' AND t.name = 'Engineering' AND ${atM(P.y2024)}`))),
  ask('Beförderungen im ersten Quartal 2025', 'de', ['foreign_language', 'simple', 'period'], value(moves(PROMOTIONS, at(P.q1_2025)))),
  decline('Quanto guadagna in media un ingegnere?', 'it', ['foreign_language'], 'out_of_scope', 'no salaries by role in the model'),
];
