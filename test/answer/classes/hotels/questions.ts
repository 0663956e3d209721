// Questions the hotel group's revenue managers and hotel managers ask, one block per class, with the
// answer as SQL over the warehouse. Periods as in ../periods.ts, by check-in date. A share is a
// fraction from 0 to 1. A negation keeps the rows without a value (a booking whose guest's country is
// unknown is not one from Germany), as the semantic layer's negated filters do (docs/queries.md).
import { ask, compared, decline, rows, shares, translated, value } from '../../unseen/question-helpers.js';
import type { UnseenQuestion } from '../../unseen/types.js';
import { P, within, type Period } from '../periods.js';

const JOINED = 'hotels.bookings b JOIN hotels.hotels h ON h.id = b.hotel_id LEFT JOIN hotels.countries g ON g.code = b.guest_country';
const at = (period: Period): string => within('check_in', 'DATE', period);
const atB = (period: Period): string => within('b.check_in', 'DATE', period);
const bookings = (select: string, where: string): string => `SELECT ${select} FROM hotels.bookings WHERE ${where}`;
const joined = (select: string, where: string): string => `SELECT ${select} FROM ${JOINED} WHERE ${where}`;
const NIGHTS = `sum(nights) FILTER (WHERE status = 'stayed')`;
const GUESTS = `sum(guests) FILTER (WHERE status = 'stayed')`;
const ADR = `sum(revenue) / ${NIGHTS}`;
const CANCELLED = `count(*) FILTER (WHERE status = 'cancelled')`;

export const HOTEL_QUESTIONS: readonly UnseenQuestion[] = [
  // Comparisons of two periods
  ask('How many more bookings did we get in 2024 than in 2023?', 'en', ['comparison', 'verb', 'period'], compared(bookings('count(*)', at(P.y2024)), bookings('count(*)', at(P.y2023)))),
  ask('change in room revenue from Q1 to Q2 2025', 'en', ['comparison', 'period'], compared(bookings('sum(revenue)', at(P.q2_2025)), bookings('sum(revenue)', at(P.q1_2025)))),
  ask('room nights this year vs last year', 'en', ['comparison', 'period'], compared(bookings(NIGHTS, at(P.ytd2025)), bookings(NIGHTS, at(P.ytd2024)))),
  ask('growth of room revenue last month', 'en', ['comparison', 'period'], compared(bookings('sum(revenue)', at(P.may2025)), bookings('sum(revenue)', at(P.apr2025)))),
  ask('cancellations in April 2025 compared to the same month last year', 'en', ['comparison', 'period'], compared(bookings(CANCELLED, at(P.apr2025)), bookings(CANCELLED, at(P.apr2024)))),
  ask('average daily rate in 2024 compared with 2023', 'en', ['comparison', 'period'], compared(bookings(ADR, at(P.y2024)), bookings(ADR, at(P.y2023)))),
  ask('How did the cancellation rate change from 2023 to 2024?', 'en', ['comparison', 'period'], compared(bookings(`${CANCELLED} * 1.0 / count(*)`, at(P.y2024)), bookings(`${CANCELLED} * 1.0 / count(*)`, at(P.y2023)))),
  ask('guests last quarter versus the same quarter last year', 'en', ['comparison', 'period'], compared(bookings(GUESTS, at(P.q1_2025)), bookings(GUESTS, at(P.q1_2024)))),
  decline('room revenue in 2024 compared with our competitors', 'en', ['comparison', 'period'], 'out_of_scope', 'no competitor figures in the model'),
  decline('bookings this summer compared to last summer', 'en', ['comparison', 'period'], 'ambiguous', 'which months make a summer, and this one is not over'),

  // Shares of a total
  ask('What share of bookings in 2024 were cancelled?', 'en', ['share', 'derived_form', 'period'], value(bookings(`${CANCELLED} * 1.0 / count(*)`, at(P.y2024)))),
  ask('What percentage of room revenue in 2024 came from corporate bookings?', 'en', ['share', 'period'], value(bookings(`sum(revenue) FILTER (WHERE channel = 'corporate') / sum(revenue)`, at(P.y2024)))),
  ask('share of each booking channel in room nights in 2024', 'en', ['share', 'breakdown', 'period'], shares(bookings(`channel, ${NIGHTS} / sum(${NIGHTS}) OVER ()`, `${at(P.y2024)} GROUP BY 1`))),
  ask('What fraction of guests last year stayed in suites?', 'en', ['share', 'period'], value(bookings(`sum(guests) FILTER (WHERE status = 'stayed' AND room_type = 'suite') * 1.0 / ${GUESTS}`, at(P.y2024)))),
  ask('share of room revenue by hotel in Q1 2025', 'en', ['share', 'breakdown', 'joined_value', 'period'], shares(joined('h.name, sum(b.revenue) / sum(sum(b.revenue)) OVER ()', `${atB(P.q1_2025)} GROUP BY 1`))),
  ask('What share of bookings in 2024 came from guests from the United States?', 'en', ['share', 'direction_verb', 'period'], value(bookings(`count(*) FILTER (WHERE guest_country = 'US') * 1.0 / count(*)`, at(P.y2024)))),
  ask('percentage of room nights spent at hotels in Spain in 2024', 'en', ['share', 'direction_verb', 'period'], value(joined(`sum(b.nights) FILTER (WHERE b.status = 'stayed' AND h.country = 'Spain') * 1.0 / sum(b.nights) FILTER (WHERE b.status = 'stayed')`, atB(P.y2024)))),
  ask('share of each room type in bookings last month', 'en', ['share', 'breakdown', 'period'], shares(bookings('room_type, count(*) / sum(count(*)) OVER ()', `${at(P.may2025)} GROUP BY 1`))),
  decline('What share of the Lisbon hotel market do we have?', 'en', ['share'], 'out_of_scope', 'no market figures in the model'),
  decline('What percentage of our rooms were occupied in 2024?', 'en', ['share', 'period'], 'out_of_scope', 'occupancy needs the rooms available each night, which the model does not hold'),

  // One metric per another
  ask('room revenue per room night in 2024', 'en', ['per', 'period'], value(bookings(ADR, at(P.y2024)))),
  ask('room revenue per booking in 2024', 'en', ['per', 'period'], value(bookings('sum(revenue) / count(*)', at(P.y2024)))),
  ask('room nights per booking in 2024', 'en', ['per', 'period'], value(bookings(`${NIGHTS} * 1.0 / count(*)`, at(P.y2024)))),
  ask('room revenue per guest in Q1 2025', 'en', ['per', 'period'], value(bookings(`sum(revenue) / ${GUESTS}`, at(P.q1_2025)))),
  ask('average daily rate per hotel in 2024', 'en', ['per', 'breakdown', 'joined_value', 'period'], rows(joined(`h.name, sum(b.revenue) / sum(b.nights) FILTER (WHERE b.status = 'stayed')`, `${atB(P.y2024)} GROUP BY 1`))),
  ask('rate per night by room type in 2024', 'en', ['per', 'breakdown', 'synonym', 'period'], rows(bookings(`room_type, ${ADR}`, `${at(P.y2024)} GROUP BY 1`))),
  ask('guests per booking last year', 'en', ['per', 'period'], value(bookings(`${GUESTS} * 1.0 / count(*)`, at(P.y2024)))),
  ask('cancellations per booking in Q1 2025', 'en', ['per', 'period'], value(bookings(`${CANCELLED} * 1.0 / count(*)`, at(P.q1_2025)))),
  decline('revenue per available room in 2024', 'en', ['per', 'period'], 'inexpressible', 'rooms are counted in another reveal, and per night available'),
  decline('room revenue per employee in 2024', 'en', ['per', 'period'], 'out_of_scope', 'no staff in the model'),

  // Negation
  ask('bookings excluding OTA in 2024', 'en', ['negation', 'period'], value(bookings('count(*)', `channel <> 'OTA' AND ${at(P.y2024)}`))),
  ask('room revenue in 2024 except the London hotel', 'en', ['negation', 'joined_value', 'period'], value(joined('sum(b.revenue)', `h.city <> 'London' AND ${atB(P.y2024)}`))),
  ask('room nights in Q1 2025 other than suites', 'en', ['negation', 'period'], value(bookings(NIGHTS, `room_type <> 'suite' AND ${at(P.q1_2025)}`))),
  ask('How many bookings in 2024 were not cancelled?', 'en', ['negation', 'derived_form', 'period'], value(bookings('count(*)', `status <> 'cancelled' AND ${at(P.y2024)}`))),
  ask('guests from countries other than Germany in 2024', 'en', ['negation', 'direction_verb', 'period'], value(bookings(GUESTS, `guest_country IS DISTINCT FROM 'DE' AND ${at(P.y2024)}`))),
  ask('room revenue without corporate bookings last month', 'en', ['negation', 'period'], value(bookings('sum(revenue)', `channel <> 'corporate' AND ${at(P.may2025)}`))),
  ask('bookings at hotels outside Spain in 2024', 'en', ['negation', 'direction_verb', 'period'], value(joined('count(*)', `h.country <> 'Spain' AND ${atB(P.y2024)}`))),
  ask('cancellations in 2024 excluding travel agents', 'en', ['negation', 'multi_word_value', 'period'], value(bookings(CANCELLED, `channel <> 'travel agent' AND ${at(P.y2024)}`))),
  decline('room revenue excluding breakfast in 2024', 'en', ['negation', 'period'], 'out_of_scope', 'no split of revenue between rooms and extras'),
  decline('bookings in 2024 excluding Spain', 'en', ['negation', 'period'], 'ambiguous', 'guests from Spain or hotels in Spain'),

  // Several filters
  ask('room revenue from direct bookings of deluxe rooms in 2024', 'en', ['multi_filter', 'period'], value(bookings('sum(revenue)', `channel = 'direct' AND room_type = 'deluxe' AND ${at(P.y2024)}`))),
  ask('cancelled OTA bookings at hotels in France in 2024', 'en', ['multi_filter', 'direction_verb', 'period'], value(joined('count(*)', `b.status = 'cancelled' AND b.channel = 'OTA' AND h.country = 'France' AND ${atB(P.y2024)}`))),
  ask('room nights of corporate guests from the United Kingdom at hotels in Germany in 2024', 'en', ['multi_filter', 'direction_verb', 'multi_word_value', 'period'], value(joined(`sum(b.nights) FILTER (WHERE b.status = 'stayed')`, `b.channel = 'corporate' AND b.guest_country = 'GB' AND h.country = 'Germany' AND ${atB(P.y2024)}`))),
  ask('average daily rate of suites in Paris last year', 'en', ['multi_filter', 'joined_value', 'period'], value(joined(`sum(b.revenue) / sum(b.nights) FILTER (WHERE b.status = 'stayed')`, `b.room_type = 'suite' AND h.city = 'Paris' AND ${atB(P.y2024)}`))),
  ask('bookings from Japan through travel agents in 2024', 'en', ['multi_filter', 'direction_verb', 'period'], value(bookings('count(*)', `guest_country = 'JP' AND channel = 'travel agent' AND ${at(P.y2024)}`))),
  ask('guests who booked direct for standard rooms in Rome in Q1 2025', 'en', ['multi_filter', 'joined_value', 'period'], value(joined(`sum(b.guests) FILTER (WHERE b.status = 'stayed')`, `b.channel = 'direct' AND b.room_type = 'standard' AND h.city = 'Rome' AND ${atB(P.q1_2025)}`))),
  ask('no-show OTA bookings in Madrid in 2024', 'en', ['multi_filter', 'joined_value', 'period'], value(joined('count(*)', `b.status = 'no-show' AND b.channel = 'OTA' AND h.city = 'Madrid' AND ${atB(P.y2024)}`))),
  ask('room revenue from guests from Brazil in deluxe rooms in 2024', 'en', ['multi_filter', 'direction_verb', 'period'], value(bookings('sum(revenue)', `guest_country = 'BR' AND room_type = 'deluxe' AND ${at(P.y2024)}`))),
  decline('bookings of more than 3 nights at 5-star hotels in 2024', 'en', ['multi_filter', 'period'], 'inexpressible', 'a numeric threshold on nights'),

  // Verbs that bind a country to the guest or to the hotel
  ask('How many bookings came from guests from Germany in 2024?', 'en', ['direction_verb', 'verb', 'period'], value(bookings('count(*)', `guest_country = 'DE' AND ${at(P.y2024)}`))),
  ask('room nights at hotels in Germany in 2024', 'en', ['direction_verb', 'period'], value(joined(`sum(b.nights) FILTER (WHERE b.status = 'stayed')`, `h.country = 'Germany' AND ${atB(P.y2024)}`))),
  ask('How many guests from Spain stayed in Portugal in 2024?', 'en', ['direction_verb', 'multi_filter', 'period'], value(joined(`sum(b.guests) FILTER (WHERE b.status = 'stayed')`, `b.guest_country = 'ES' AND h.country = 'Portugal' AND ${atB(P.y2024)}`))),
  ask('room revenue from guests from Italy who stayed in France in 2024', 'en', ['direction_verb', 'multi_filter', 'period'], value(joined('sum(b.revenue)', `b.guest_country = 'IT' AND h.country = 'France' AND ${atB(P.y2024)}`))),
  ask('bookings by guests travelling from North America in Q1 2025', 'en', ['direction_verb', 'joined_value', 'period'], value(joined('count(*)', `g.continent = 'North America' AND ${atB(P.q1_2025)}`))),
  ask('How many guests visited Italy from the United Kingdom last year?', 'en', ['direction_verb', 'multi_filter', 'period'], value(joined(`sum(b.guests) FILTER (WHERE b.status = 'stayed')`, `b.guest_country = 'GB' AND h.country = 'Italy' AND ${atB(P.y2024)}`))),
  ask('room nights in Spain booked by guests from Spain in 2024', 'en', ['direction_verb', 'multi_filter', 'period'], value(joined(`sum(b.nights) FILTER (WHERE b.status = 'stayed')`, `b.guest_country = 'ES' AND h.country = 'Spain' AND ${atB(P.y2024)}`))),
  ask('bookings coming from Asia in 2024', 'en', ['direction_verb', 'joined_value', 'period'], value(joined('count(*)', `g.continent = 'Asia' AND ${atB(P.y2024)}`))),
  decline('bookings involving France in 2024', 'en', ['direction_verb', 'period'], 'ambiguous', 'guests from France or hotels in France'),
  decline('How many guests travelled between Spain and Portugal in 2024?', 'en', ['direction_verb', 'period'], 'ambiguous', 'either direction, or both'),

  // Other languages, on an English-only model
  translated(ask('¿Cuántas reservas hubo en 2024?', 'es', ['foreign_language', 'simple', 'period'], value(bookings('count(*)', at(P.y2024)))), 'How many bookings were there in 2024?'),
  translated(ask('Quelle part des réservations de 2024 a été annulée ?', 'fr', ['foreign_language', 'share', 'period'], value(bookings(`${CANCELLED} * 1.0 / count(*)`, at(P.y2024)))), 'What share of bookings in 2024 was cancelled?'),
  translated(ask('Zimmerumsatz pro Zimmernacht im Jahr 2024', 'de', ['foreign_language', 'per', 'period'], value(bookings(ADR, at(P.y2024)))), 'Room revenue per room night in 2024'),
  translated(ask('reservas excluindo OTA em 2024', 'pt', ['foreign_language', 'negation', 'period'], value(bookings('count(*)', `channel <> 'OTA' AND ${at(P.y2024)}`))), 'bookings excluding OTA in 2024'),
  translated(ask('Quante prenotazioni in più nel 2024 rispetto al 2023?', 'it', ['foreign_language', 'comparison', 'period'], compared(bookings('count(*)', at(P.y2024)), bookings('count(*)', at(P.y2023)))), 'How many more bookings in 2024 compared to 2023?'),
  translated(ask('notti vendute negli hotel in Germania nel 2024', 'it', ['foreign_language', 'direction_verb', 'period'], value(joined(`sum(b.nights) FILTER (WHERE b.status = 'stayed')`, `h.country = 'Germany' AND ${atB(P.y2024)}`))), 'nights sold at hotels in Germany in 2024'),
  translated(ask('ingresos por habitaciones de reservas directas de suites en 2024', 'es', ['foreign_language', 'multi_filter', 'period'], value(bookings('sum(revenue)', `channel = 'direct' AND room_type = 'suite' AND ${at(P.y2024)}`))), 'room revenue from direct bookings of suites in 2024'),
  translated(ask("taux d'annulation au premier trimestre 2025", 'fr', ['foreign_language', 'simple', 'period'], value(bookings(`${CANCELLED} * 1.0 / count(*)`, at(P.q1_2025)))), 'cancellation rate in the first quarter of 2025'),
  translated(ask('Buchungen von Gästen aus Japan im Jahr 2024', 'de', ['foreign_language', 'direction_verb', 'period'], value(bookings('count(*)', `guest_country = 'JP' AND ${at(P.y2024)}`))), 'bookings by guests from Japan in 2024'),
  translated(decline('Qual é a nota média dos hóspedes no TripAdvisor?', 'pt', ['foreign_language'], 'out_of_scope', 'no guest reviews in the model'), "What is the guests' average rating on TripAdvisor?"),
];
