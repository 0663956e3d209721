// Questions the bike-share scheme's operations and finance people ask, one block per class, with the
// answer as SQL over the warehouse. Periods as in ../periods.ts. A share is a fraction from 0 to 1. A
// negation keeps the rows without a value (a trip whose bike type is unknown is not an electric one),
// as the semantic layer's negated filters do (docs/queries.md).
import { ask, compared, decline, rows, shares, translated, value } from '../../unseen/question-helpers.js';
import type { UnseenQuestion } from '../../unseen/types.js';
import { P, within, type Period } from '../periods.js';

const JOINED = 'bikeshare.trips t JOIN bikeshare.stations s ON s.id = t.start_station_id JOIN bikeshare.stations e ON e.id = t.end_station_id';
const at = (period: Period): string => within('started_at', 'TIMESTAMP', period);
const atT = (period: Period): string => within('t.started_at', 'TIMESTAMP', period);
const trips = (select: string, where: string): string => `SELECT ${select} FROM bikeshare.trips WHERE ${where}`;
const joined = (select: string, where: string): string => `SELECT ${select} FROM ${JOINED} WHERE ${where}`;
const ELECTRIC = `count(*) FILTER (WHERE bike_type = 'electric')`;

export const BIKESHARE_QUESTIONS: readonly UnseenQuestion[] = [
  // Comparisons of two periods
  ask('How many more trips were there in 2024 than in 2023?', 'en', ['comparison', 'period'], compared(trips('count(*)', at(P.y2024)), trips('count(*)', at(P.y2023)))),
  ask('change in fare revenue from Q1 to Q2 2025', 'en', ['comparison', 'period'], compared(trips('sum(fare)', at(P.q2_2025)), trips('sum(fare)', at(P.q1_2025)))),
  ask('trips this year vs last year', 'en', ['comparison', 'period'], compared(trips('count(*)', at(P.ytd2025)), trips('count(*)', at(P.ytd2024)))),
  ask('growth of electric trips last month', 'en', ['comparison', 'period'], compared(trips(ELECTRIC, at(P.may2025)), trips(ELECTRIC, at(P.apr2025)))),
  ask('riding time in May 2025 compared to the same month last year', 'en', ['comparison', 'period'], compared(trips('sum(duration_minutes)', at(P.may2025)), trips('sum(duration_minutes)', at(P.may2024)))),
  ask('How did the distance ridden change between 2023 and 2024?', 'en', ['comparison', 'period'], compared(trips('sum(distance_km)', at(P.y2024)), trips('sum(distance_km)', at(P.y2023)))),
  ask('average fare last quarter versus the quarter before', 'en', ['comparison', 'period'], compared(trips('sum(fare) / count(*)', at(P.q1_2025)), trips('sum(fare) / count(*)', at(P.q4_2024)))),
  ask('Did the number of bikes used go up or down in March 2025 compared with February 2025?', 'en', ['comparison', 'period'], compared(trips('count(DISTINCT bike_id)', at(P.mar2025)), trips('count(DISTINCT bike_id)', at(P.feb2025)))),
  decline('fare revenue this year against our budget', 'en', ['comparison', 'period'], 'out_of_scope', 'no budget or target in the model'),
  decline('How many more trips than last year?', 'en', ['comparison', 'period'], 'ambiguous', 'no current period: this year so far against the same days or against all of last year'),

  // Shares of a total
  ask('What share of trips in 2024 were made on electric bikes?', 'en', ['share', 'period'], value(trips(`${ELECTRIC} * 1.0 / count(*)`, at(P.y2024)))),
  ask('What percentage of trips last month were by casual riders?', 'en', ['share', 'period'], value(trips(`count(*) FILTER (WHERE rider_type = 'casual') * 1.0 / count(*)`, at(P.may2025)))),
  ask('share of each rider type in fare revenue in 2024', 'en', ['share', 'breakdown', 'period'], shares(trips('rider_type, sum(fare) / sum(sum(fare)) OVER ()', `${at(P.y2024)} GROUP BY 1`))),
  ask('What fraction of riding time in 2024 was on classic bikes?', 'en', ['share', 'period'], value(trips(`sum(duration_minutes) FILTER (WHERE bike_type = 'classic') * 1.0 / sum(duration_minutes)`, at(P.y2024)))),
  ask('share of trips by start district in 2024', 'en', ['share', 'breakdown', 'joined_value', 'period'], shares(joined('s.district, count(*) / sum(count(*)) OVER ()', `${atT(P.y2024)} GROUP BY 1`))),
  ask('What percent of fare revenue in Q1 2025 came from card payments?', 'en', ['share', 'period'], value(trips(`sum(fare) FILTER (WHERE payment = 'card') / sum(fare)`, at(P.q1_2025)))),
  ask('share of each payment method in trips this year', 'en', ['share', 'breakdown', 'period'], shares(trips('payment, count(*) / sum(count(*)) OVER ()', `${at(P.ytd2025)} GROUP BY 1`))),
  ask('What share of trips in 2024 ended at Central Station?', 'en', ['share', 'direction_verb', 'period'], value(joined(`count(*) FILTER (WHERE e.name = 'Central Station') * 1.0 / count(*)`, `${atT(P.y2024)}`))),
  decline("What share of the city's commuters use our bikes?", 'en', ['share'], 'out_of_scope', 'no commuter population in the model'),
  decline('share of trips longer than 30 minutes in 2024', 'en', ['share', 'period'], 'inexpressible', 'a numeric threshold on duration'),

  // One metric per another
  ask('fare revenue per trip in 2024', 'en', ['per', 'period'], value(trips('sum(fare) / count(*)', at(P.y2024)))),
  ask('revenue per ride in Q1 2025', 'en', ['per', 'synonym', 'period'], value(trips('sum(fare) / count(*)', at(P.q1_2025)))),
  ask('riding time per trip in 2024', 'en', ['per', 'period'], value(trips('sum(duration_minutes) * 1.0 / count(*)', at(P.y2024)))),
  ask('distance ridden per trip last month', 'en', ['per', 'period'], value(trips('sum(distance_km) / count(*)', at(P.may2025)))),
  ask('trips per bike in 2024', 'en', ['per', 'period'], value(trips('count(*) * 1.0 / count(DISTINCT bike_id)', at(P.y2024)))),
  ask('fare revenue per kilometre in 2024', 'en', ['per', 'period'], value(trips('sum(fare) / sum(distance_km)', at(P.y2024)))),
  ask('kilometres per bike this year', 'en', ['per', 'period'], value(trips('sum(distance_km) / count(DISTINCT bike_id)', at(P.ytd2025)))),
  ask('fare revenue per trip by rider type in 2024', 'en', ['per', 'breakdown', 'period'], rows(trips('rider_type, sum(fare) / count(*)', `${at(P.y2024)} GROUP BY 1`))),
  ask('minutes ridden per kilometre in 2024', 'en', ['per', 'period'], value(trips('sum(duration_minutes) / sum(distance_km)', at(P.y2024)))),
  decline('fare revenue per station in 2024', 'en', ['per', 'period'], 'ambiguous', 'start or end station, and a breakdown or a division by the number of stations'),
  decline('trips per resident last year', 'en', ['per', 'period'], 'out_of_scope', 'no population in the model'),

  // Negation
  ask('trips excluding electric bikes in 2024', 'en', ['negation', 'period'], value(trips('count(*)', `bike_type IS DISTINCT FROM 'electric' AND ${at(P.y2024)}`))),
  ask('fare revenue except card payments last month', 'en', ['negation', 'period'], value(trips('sum(fare)', `payment <> 'card' AND ${at(P.may2025)}`))),
  ask('How many trips in 2024 did not start at Central Station?', 'en', ['negation', 'direction_verb', 'period'], value(joined('count(*)', `s.name <> 'Central Station' AND ${atT(P.y2024)}`))),
  ask('riding time of trips by riders who are not members in Q1 2025', 'en', ['negation', 'period'], value(trips('sum(duration_minutes)', `rider_type <> 'member' AND ${at(P.q1_2025)}`))),
  ask('distance ridden in 2024 on bikes other than classic ones', 'en', ['negation', 'period'], value(trips('sum(distance_km)', `bike_type IS DISTINCT FROM 'classic' AND ${at(P.y2024)}`))),
  ask('trips without a pass last month', 'en', ['negation', 'period'], value(trips('count(*)', `payment <> 'pass' AND ${at(P.may2025)}`))),
  ask('How many trips in 2024 did not end in the Old Town district?', 'en', ['negation', 'direction_verb', 'multi_word_value', 'period'], value(joined('count(*)', `e.district <> 'Old Town' AND ${atT(P.y2024)}`))),
  ask('fare revenue in 2024 excluding trips that started in the Harbour district', 'en', ['negation', 'direction_verb', 'period'], value(joined('sum(t.fare)', `s.district <> 'Harbour' AND ${atT(P.y2024)}`))),
  decline('trips excluding the Harbour district in 2024', 'en', ['negation', 'period'], 'ambiguous', 'trips starting or ending in Harbour'),
  decline('trips in 2024 excluding rainy days', 'en', ['negation', 'period'], 'out_of_scope', 'no weather in the model'),

  // Several filters
  ask('trips on electric bikes by casual riders paying by card in 2024', 'en', ['multi_filter', 'period'], value(trips('count(*)', `bike_type = 'electric' AND rider_type = 'casual' AND payment = 'card' AND ${at(P.y2024)}`))),
  ask('fare revenue from casual riders on classic bikes last month', 'en', ['multi_filter', 'period'], value(trips('sum(fare)', `rider_type = 'casual' AND bike_type = 'classic' AND ${at(P.may2025)}`))),
  ask('riding time of members on electric bikes in Q1 2025', 'en', ['multi_filter', 'period'], value(trips('sum(duration_minutes)', `rider_type = 'member' AND bike_type = 'electric' AND ${at(P.q1_2025)}`))),
  ask('trips by members from Central Station to Harbour Front in 2024', 'en', ['multi_filter', 'direction_verb', 'multi_word_value', 'period'], value(joined('count(*)', `t.rider_type = 'member' AND s.name = 'Central Station' AND e.name = 'Harbour Front' AND ${atT(P.y2024)}`))),
  ask('distance ridden by casual riders starting in the University district in 2024', 'en', ['multi_filter', 'direction_verb', 'period'], value(joined('sum(t.distance_km)', `t.rider_type = 'casual' AND s.district = 'University' AND ${atT(P.y2024)}`))),
  ask('trips paid in the app on electric bikes this year', 'en', ['multi_filter', 'period'], value(trips('count(*)', `payment = 'app' AND bike_type = 'electric' AND ${at(P.ytd2025)}`))),
  ask('average fare of casual riders on electric bikes in 2024', 'en', ['multi_filter', 'period'], value(trips('sum(fare) / count(*)', `rider_type = 'casual' AND bike_type = 'electric' AND ${at(P.y2024)}`))),
  ask('How many members rode electric bikes from Campus North in May 2025?', 'en', ['multi_filter', 'direction_verb', 'period'], value(joined('count(DISTINCT t.member_id)', `t.bike_type = 'electric' AND s.name = 'Campus North' AND ${atT(P.may2025)}`))),
  decline('trips by casual riders over 10 km in 2024', 'en', ['multi_filter', 'period'], 'inexpressible', 'a numeric threshold on distance'),
  decline('fare revenue from members on e-bikes at stations near the river in 2024', 'en', ['multi_filter', 'period'], 'inexpressible', '"near the river" is no value of the model'),

  // Verbs that bind a station to its role
  ask('How many trips started at Harbour Front in 2024?', 'en', ['direction_verb', 'multi_word_value', 'period'], value(joined('count(*)', `s.name = 'Harbour Front' AND ${atT(P.y2024)}`))),
  ask('trips that ended at City Hall last month', 'en', ['direction_verb', 'multi_word_value', 'period'], value(joined('count(*)', `e.name = 'City Hall' AND ${atT(P.may2025)}`))),
  ask('How many rentals were returned to Museum Square in May 2025?', 'en', ['direction_verb', 'synonym', 'period'], value(joined('count(*)', `e.name = 'Museum Square' AND ${atT(P.may2025)}`))),
  ask('riding time of trips departing from Ferry Terminal in 2024', 'en', ['direction_verb', 'period'], value(joined('sum(t.duration_minutes)', `s.name = 'Ferry Terminal' AND ${atT(P.y2024)}`))),
  ask('fare revenue from trips that finished in the Riverside district in Q1 2025', 'en', ['direction_verb', 'joined_value', 'period'], value(joined('sum(t.fare)', `e.district = 'Riverside' AND ${atT(P.q1_2025)}`))),
  ask('trips picked up in the Old Town district and dropped off at Central Station in 2024', 'en', ['direction_verb', 'multi_filter', 'period'], value(joined('count(*)', `s.district = 'Old Town' AND e.name = 'Central Station' AND ${atT(P.y2024)}`))),
  ask('How many trips left Campus North in 2024?', 'en', ['direction_verb', 'period'], value(joined('count(*)', `s.name = 'Campus North' AND ${atT(P.y2024)}`))),
  ask('trips docked at Stadium Gate this year', 'en', ['direction_verb', 'period'], value(joined('count(*)', `e.name = 'Stadium Gate' AND ${atT(P.ytd2025)}`))),
  ask('trips arriving at Harbour Front from City Hall in 2024', 'en', ['direction_verb', 'multi_filter', 'period'], value(joined('count(*)', `s.name = 'City Hall' AND e.name = 'Harbour Front' AND ${atT(P.y2024)}`))),
  decline('trips at Central Station in 2024', 'en', ['direction_verb', 'period'], 'ambiguous', 'trips starting or ending at Central Station'),
  decline('How many trips passed through City Hall in 2024?', 'en', ['direction_verb', 'period'], 'inexpressible', 'trips record where they start and end, not the way they ride'),

  // Other languages, on an English-only model
  translated(ask('¿Cuántos viajes hubo en 2024?', 'es', ['foreign_language', 'simple', 'period'], value(trips('count(*)', at(P.y2024)))), 'How many trips were there in 2024?'),
  translated(ask('Combien de trajets en plus en 2024 par rapport à 2023 ?', 'fr', ['foreign_language', 'comparison', 'period'], compared(trips('count(*)', at(P.y2024)), trips('count(*)', at(P.y2023)))), 'How many more trips were there in 2024 compared to 2023?'),
  translated(ask('Anteil der Fahrten mit Elektrorädern im Jahr 2024', 'de', ['foreign_language', 'share', 'period'], value(trips(`${ELECTRIC} * 1.0 / count(*)`, at(P.y2024)))), 'Share of trips on electric bikes in 2024'),
  translated(ask('receita de tarifas por viagem em 2024', 'pt', ['foreign_language', 'per', 'period'], value(trips('sum(fare) / count(*)', at(P.y2024)))), 'fare revenue per trip in 2024'),
  translated(ask('Quanti viaggi sono partiti da Central Station nel 2024?', 'it', ['foreign_language', 'direction_verb', 'period'], value(joined('count(*)', `s.name = 'Central Station' AND ${atT(P.y2024)}`))), 'How many trips started from Central Station in 2024?'),
  translated(ask('viaggi nel 2024 escluse le bici elettriche', 'it', ['foreign_language', 'negation', 'period'], value(trips('count(*)', `bike_type IS DISTINCT FROM 'electric' AND ${at(P.y2024)}`))), 'trips in 2024 excluding electric bikes'),
  translated(ask('ingresos por tarifas de los usuarios ocasionales en bicicletas eléctricas en el primer trimestre de 2025', 'es', ['foreign_language', 'multi_filter', 'period'], value(trips('sum(fare)', `rider_type = 'casual' AND bike_type = 'electric' AND ${at(P.q1_2025)}`))), 'fare revenue from casual riders on electric bikes in the first quarter of 2025'),
  translated(ask('Wie viele Fahrten endeten 2024 an der Station Harbour Front?', 'de', ['foreign_language', 'direction_verb', 'period'], value(joined('count(*)', `e.name = 'Harbour Front' AND ${atT(P.y2024)}`))), 'How many trips ended at Harbour Front station in 2024?'),
  translated(ask('durée moyenne des trajets en mai 2025', 'fr', ['foreign_language', 'simple', 'period'], value(trips('avg(duration_minutes)', at(P.may2025)))), 'average trip duration in May 2025'),
  translated(decline('Quanto costa comprare una bici nuova?', 'it', ['foreign_language'], 'out_of_scope', 'no purchase prices in the model'), 'How much does it cost to buy a new bike?'),
];
