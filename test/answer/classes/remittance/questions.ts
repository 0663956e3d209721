// Questions the money-transfer service's payments, finance and compliance people ask, one block per
// class, with the answer as SQL over the warehouse. Periods as in ../periods.ts. Volume counts the
// transfers not cancelled, as modelled. A share is a fraction from 0 to 1. A negation keeps the rows
// without a value (a transfer with no declared purpose is not one for family support), as the
// semantic layer's negated filters do (docs/queries.md).
import { ask, compared, decline, rows, shares, translated, value } from '../../unseen/question-helpers.js';
import type { UnseenQuestion } from '../../unseen/types.js';
import { P, within, type Period } from '../periods.js';

const JOINED = 'remit.transfers t JOIN remit.countries s ON s.code = t.send_country JOIN remit.countries r ON r.code = t.receive_country';
const at = (period: Period): string => within('sent_at', 'TIMESTAMP', period);
const atT = (period: Period): string => within('t.sent_at', 'TIMESTAMP', period);
const transfers = (select: string, where: string): string => `SELECT ${select} FROM remit.transfers WHERE ${where}`;
const joined = (select: string, where: string): string => `SELECT ${select} FROM ${JOINED} WHERE ${where}`;
const VOLUME = `sum(amount) FILTER (WHERE status <> 'cancelled')`;
const T_VOLUME = `sum(t.amount) FILTER (WHERE t.status <> 'cancelled')`;
const REFUNDED = `count(*) FILTER (WHERE status = 'refunded')`;

export const REMITTANCE_QUESTIONS: readonly UnseenQuestion[] = [
  // Comparisons of two periods
  ask('How many more transfers were sent in 2024 than in 2023?', 'en', ['comparison', 'verb', 'period'], compared(transfers('count(*)', at(P.y2024)), transfers('count(*)', at(P.y2023)))),
  ask('change in transfer volume from Q1 to Q2 2025', 'en', ['comparison', 'period'], compared(transfers(VOLUME, at(P.q2_2025)), transfers(VOLUME, at(P.q1_2025)))),
  ask('fee revenue this year vs last year', 'en', ['comparison', 'period'], compared(transfers('sum(fee)', at(P.ytd2025)), transfers('sum(fee)', at(P.ytd2024)))),
  ask('growth of senders last month', 'en', ['comparison', 'period'], compared(transfers('count(DISTINCT customer_id)', at(P.may2025)), transfers('count(DISTINCT customer_id)', at(P.apr2025)))),
  ask('transfers in December 2024 compared to the same month last year', 'en', ['comparison', 'period'], compared(transfers('count(*)', at(P.dec2024)), transfers('count(*)', at(P.dec2023)))),
  ask('How did the fee rate change between 2023 and 2024?', 'en', ['comparison', 'period'], compared(transfers(`sum(fee) / ${VOLUME}`, at(P.y2024)), transfers(`sum(fee) / ${VOLUME}`, at(P.y2023)))),
  ask('refunded transfers last quarter vs the quarter before', 'en', ['comparison', 'derived_form', 'period'], compared(transfers(REFUNDED, at(P.q1_2025)), transfers(REFUNDED, at(P.q4_2024)))),
  ask('year over year change in money sent to Mexico in 2024', 'en', ['comparison', 'direction_verb', 'period'], compared(transfers(VOLUME, `receive_country = 'MX' AND ${at(P.y2024)}`), transfers(VOLUME, `receive_country = 'MX' AND ${at(P.y2023)}`))),
  decline('transfer volume next quarter compared to this one', 'en', ['comparison', 'period'], 'out_of_scope', 'a forecast, not a measurement'),
  decline('How much more money went to Africa than to Asia in 2024?', 'en', ['comparison', 'direction_verb', 'period'], 'inexpressible', 'a difference between two regions, not between two periods'),

  // Shares of a total
  ask('What share of transfers in 2024 were refunded?', 'en', ['share', 'derived_form', 'period'], value(transfers(`${REFUNDED} * 1.0 / count(*)`, at(P.y2024)))),
  ask('What percentage of transfer volume in 2024 went to Mexico?', 'en', ['share', 'direction_verb', 'period'], value(transfers(`sum(amount) FILTER (WHERE status <> 'cancelled' AND receive_country = 'MX') / ${VOLUME}`, at(P.y2024)))),
  ask('share of each channel in transfers this year', 'en', ['share', 'breakdown', 'period'], shares(transfers('channel, count(*) / sum(count(*)) OVER ()', `${at(P.ytd2025)} GROUP BY 1`))),
  ask('What fraction of fee revenue last year came from agents?', 'en', ['share', 'period'], value(transfers(`sum(fee) FILTER (WHERE channel = 'agent') / sum(fee)`, at(P.y2024)))),
  ask('share of transfer volume by receiving country in 2024', 'en', ['share', 'breakdown', 'joined_value', 'period'], shares(joined(`r.name, ${T_VOLUME} / sum(${T_VOLUME}) OVER ()`, `${atT(P.y2024)} GROUP BY 1`))),
  ask('What share of transfers last month used cash pickup?', 'en', ['share', 'multi_word_value', 'period'], value(transfers(`count(*) FILTER (WHERE payout_method = 'cash pickup') * 1.0 / count(*)`, at(P.may2025)))),
  ask('percentage of transfers sent from Spain in 2024', 'en', ['share', 'direction_verb', 'period'], value(transfers(`count(*) FILTER (WHERE send_country = 'ES') * 1.0 / count(*)`, at(P.y2024)))),
  ask('share of each purpose in transfer volume in 2024', 'en', ['share', 'breakdown', 'null_group', 'period'], shares(transfers(`purpose, ${VOLUME} / sum(${VOLUME}) OVER ()`, `${at(P.y2024)} GROUP BY 1`))),
  decline('What is our market share in the corridor from the United States to Mexico?', 'en', ['share'], 'out_of_scope', 'no market figures in the model'),
  decline('share of transfers above $1,000 in 2024', 'en', ['share', 'period'], 'inexpressible', 'a numeric threshold on the amount'),

  // One metric per another
  ask('fee revenue per transfer in 2024', 'en', ['per', 'period'], value(transfers('sum(fee) / count(*)', at(P.y2024)))),
  ask('transfer volume per sender in 2024', 'en', ['per', 'period'], value(transfers(`${VOLUME} / count(DISTINCT customer_id)`, at(P.y2024)))),
  ask('fees per sender last month', 'en', ['per', 'period'], value(transfers('sum(fee) / count(DISTINCT customer_id)', at(P.may2025)))),
  ask('transfers per sender this year', 'en', ['per', 'period'], value(transfers('count(*) * 1.0 / count(DISTINCT customer_id)', at(P.ytd2025)))),
  ask('fees per dollar sent in 2024', 'en', ['per', 'period'], value(transfers(`sum(fee) / ${VOLUME}`, at(P.y2024)))),
  ask('fee per transfer by channel in 2024', 'en', ['per', 'breakdown', 'period'], rows(transfers('channel, sum(fee) / count(*)', `${at(P.y2024)} GROUP BY 1`))),
  ask('transfer volume per sender by sending country in 2024', 'en', ['per', 'breakdown', 'joined_value', 'period'], rows(joined(`s.name, ${T_VOLUME} / count(DISTINCT t.customer_id)`, `${atT(P.y2024)} GROUP BY 1`))),
  ask('fee rate per payout method last year', 'en', ['per', 'breakdown', 'period'], rows(transfers(`payout_method, sum(fee) / ${VOLUME}`, `${at(P.y2024)} GROUP BY 1`))),
  decline('fee revenue per employee in 2024', 'en', ['per', 'period'], 'out_of_scope', 'no staff in the model'),
  decline('transfer volume per recipient in 2024', 'en', ['per', 'period'], 'out_of_scope', 'the model counts senders, not the people who receive'),

  // Negation
  ask('transfers in 2024 excluding cancelled ones', 'en', ['negation', 'derived_form', 'period'], value(transfers('count(*)', `status <> 'cancelled' AND ${at(P.y2024)}`))),
  ask('transfer volume not sent to Mexico in 2024', 'en', ['negation', 'direction_verb', 'period'], value(transfers(VOLUME, `receive_country <> 'MX' AND ${at(P.y2024)}`))),
  ask('fee revenue except agent transfers last month', 'en', ['negation', 'period'], value(transfers('sum(fee)', `channel <> 'agent' AND ${at(P.may2025)}`))),
  ask('How many transfers in 2024 were not for family support?', 'en', ['negation', 'null_group', 'period'], value(transfers('count(*)', `purpose IS DISTINCT FROM 'family support' AND ${at(P.y2024)}`))),
  ask('transfers sent from countries other than the United States in 2024', 'en', ['negation', 'direction_verb', 'period'], value(transfers('count(*)', `send_country <> 'US' AND ${at(P.y2024)}`))),
  ask('transfer volume without bank deposits in Q1 2025', 'en', ['negation', 'period'], value(transfers(VOLUME, `payout_method <> 'bank deposit' AND ${at(P.q1_2025)}`))),
  ask('refunded transfers in 2024 excluding the web channel', 'en', ['negation', 'period'], value(transfers('count(*)', `status = 'refunded' AND channel <> 'web' AND ${at(P.y2024)}`))),
  ask('money sent to Africa in 2024 except Morocco', 'en', ['negation', 'direction_verb', 'multi_filter', 'period'], value(joined(T_VOLUME, `r.region = 'Africa' AND r.name <> 'Morocco' AND ${atT(P.y2024)}`))),
  decline('fee revenue excluding VAT in 2024', 'en', ['negation', 'period'], 'out_of_scope', 'no tax split in the model'),
  decline('transfers in 2024 excluding Spain', 'en', ['negation', 'period'], 'ambiguous', 'sent from Spain or to Spain'),

  // Several filters
  ask('transfers from the United States to Mexico through the app in 2024', 'en', ['multi_filter', 'direction_verb', 'period'], value(transfers('count(*)', `send_country = 'US' AND receive_country = 'MX' AND channel = 'app' AND ${at(P.y2024)}`))),
  ask('volume of cash pickup transfers made at agents in Q1 2025', 'en', ['multi_filter', 'multi_word_value', 'period'], value(transfers(VOLUME, `payout_method = 'cash pickup' AND channel = 'agent' AND ${at(P.q1_2025)}`))),
  ask('fee revenue from web transfers to India in 2024', 'en', ['multi_filter', 'direction_verb', 'period'], value(transfers('sum(fee)', `channel = 'web' AND receive_country = 'IN' AND ${at(P.y2024)}`))),
  ask('refunded app transfers sent from the United States in 2024', 'en', ['multi_filter', 'direction_verb', 'derived_form', 'period'], value(transfers('count(*)', `status = 'refunded' AND channel = 'app' AND send_country = 'US' AND ${at(P.y2024)}`))),
  ask('senders using the app to send money to the Philippines last year', 'en', ['multi_filter', 'direction_verb', 'period'], value(transfers('count(DISTINCT customer_id)', `channel = 'app' AND receive_country = 'PH' AND ${at(P.y2024)}`))),
  ask('transfer volume to Latin America by mobile wallet this year', 'en', ['multi_filter', 'direction_verb', 'multi_word_value', 'period'], value(joined(T_VOLUME, `r.region = 'Latin America' AND t.payout_method = 'mobile wallet' AND ${atT(P.ytd2025)}`))),
  ask('fee rate of agent transfers from France to Senegal in 2024', 'en', ['multi_filter', 'direction_verb', 'period'], value(transfers(`sum(fee) / ${VOLUME}`, `channel = 'agent' AND send_country = 'FR' AND receive_country = 'SN' AND ${at(P.y2024)}`))),
  ask('medical transfers received by bank deposit in 2024', 'en', ['multi_filter', 'period'], value(transfers('count(*)', `purpose = 'medical' AND payout_method = 'bank deposit' AND ${at(P.y2024)}`))),
  decline('transfers of more than $500 from Spain to Morocco in 2024', 'en', ['multi_filter', 'period'], 'inexpressible', 'a numeric threshold on the amount'),
  decline('app transfers to Colombia from new customers in 2024', 'en', ['multi_filter', 'period'], 'inexpressible', 'no notion of a new customer in the model'),

  // Verbs that bind a country to the sender or to the receiver
  ask('How much money was sent from Spain in 2024?', 'en', ['direction_verb', 'period'], value(transfers(VOLUME, `send_country = 'ES' AND ${at(P.y2024)}`))),
  ask('How many transfers were received in Spain in 2024?', 'en', ['direction_verb', 'period'], value(transfers('count(*)', `receive_country = 'ES' AND ${at(P.y2024)}`))),
  ask('fee revenue on transfers sent to Colombia last month', 'en', ['direction_verb', 'period'], value(transfers('sum(fee)', `receive_country = 'CO' AND ${at(P.may2025)}`))),
  ask('How many transfers did Mexico receive from the United States in Q1 2025?', 'en', ['direction_verb', 'multi_filter', 'period'], value(transfers('count(*)', `send_country = 'US' AND receive_country = 'MX' AND ${at(P.q1_2025)}`))),
  ask('money sent home to Nigeria in 2024', 'en', ['direction_verb', 'period'], value(transfers(VOLUME, `receive_country = 'NG' AND ${at(P.y2024)}`))),
  ask('How many customers sent money from the United Kingdom in 2024?', 'en', ['direction_verb', 'multi_word_value', 'period'], value(transfers('count(DISTINCT customer_id)', `send_country = 'GB' AND ${at(P.y2024)}`))),
  ask('transfers arriving in Africa in 2024', 'en', ['direction_verb', 'joined_value', 'period'], value(joined('count(*)', `r.region = 'Africa' AND ${atT(P.y2024)}`))),
  ask('How much did senders in Europe send to Asia in 2024?', 'en', ['direction_verb', 'multi_filter', 'period'], value(joined(T_VOLUME, `s.region = 'Europe' AND r.region = 'Asia' AND ${atT(P.y2024)}`))),
  ask('transfers that Mexico sent to the United States in 2024', 'en', ['direction_verb', 'multi_filter', 'period'], value(transfers('count(*)', `send_country = 'MX' AND receive_country = 'US' AND ${at(P.y2024)}`))),
  decline('transfers between Spain and France in 2024', 'en', ['direction_verb', 'period'], 'ambiguous', 'either direction, or both'),
  decline('How much money did Spain move in 2024?', 'en', ['direction_verb', 'period'], 'ambiguous', 'money Spain sent or money it received'),

  // Other languages, on an English-only model
  translated(ask('¿Cuánto dinero se envió desde España en 2024?', 'es', ['foreign_language', 'direction_verb', 'period'], value(transfers(VOLUME, `send_country = 'ES' AND ${at(P.y2024)}`))), 'How much money was sent from Spain in 2024?'),
  translated(ask('Combien de transferts en 2024 ?', 'fr', ['foreign_language', 'simple', 'period'], value(transfers('count(*)', at(P.y2024)))), 'How many transfers in 2024?'),
  translated(ask('Gebühreneinnahmen pro Überweisung im Jahr 2024', 'de', ['foreign_language', 'per', 'period'], value(transfers('sum(fee) / count(*)', at(P.y2024)))), 'fee revenue per transfer in 2024'),
  translated(ask('Quantas transferências a mais em 2024 do que em 2023?', 'pt', ['foreign_language', 'comparison', 'period'], compared(transfers('count(*)', at(P.y2024)), transfers('count(*)', at(P.y2023)))), 'How many more transfers in 2024 than in 2023?'),
  translated(ask('Quale quota dei trasferimenti nel 2024 è stata rimborsata?', 'it', ['foreign_language', 'share', 'period'], value(transfers(`${REFUNDED} * 1.0 / count(*)`, at(P.y2024)))), 'What share of transfers in 2024 was refunded?'),
  translated(ask('volume dei trasferimenti verso il Messico tramite app nel 2024', 'it', ['foreign_language', 'multi_filter', 'direction_verb', 'period'], value(transfers(VOLUME, `receive_country = 'MX' AND channel = 'app' AND ${at(P.y2024)}`))), 'transfer volume to Mexico via app in 2024'),
  translated(ask('comisiones excluyendo el canal web en 2024', 'es', ['foreign_language', 'negation', 'period'], value(transfers('sum(fee)', `channel <> 'web' AND ${at(P.y2024)}`))), 'fees excluding the web channel in 2024'),
  translated(ask('Überweisungen aus den Vereinigten Staaten nach Mexiko über die App im Jahr 2024', 'de', ['foreign_language', 'multi_filter', 'direction_verb', 'period'], value(transfers('count(*)', `send_country = 'US' AND receive_country = 'MX' AND channel = 'app' AND ${at(P.y2024)}`))), 'transfers from the United States to Mexico via the app in 2024'),
  translated(ask('número de remetentes em maio de 2025', 'pt', ['foreign_language', 'simple', 'period'], value(transfers('count(DISTINCT customer_id)', at(P.may2025)))), 'number of senders in May 2025'),
  translated(decline('Qual è il tasso di cambio medio applicato?', 'it', ['foreign_language'], 'out_of_scope', 'no exchange rates in the model'), 'What is the average exchange rate applied?'),
];
