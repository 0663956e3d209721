// Questions the commercial, finance and trust & safety teams ask of the marketplace. Now is
// 2025-06-18 15:00 UTC. GMV counts orders not cancelled; fees count completed orders (as modelled).
import { ask, decline, ranked, rows, value } from '../question-helpers.js';
import type { UnseenQuestion } from '../types.js';

const Y2024 = `ordered_at >= TIMESTAMP '2024-01-01' AND ordered_at < TIMESTAMP '2025-01-01'`;
const GMV = `sum(gmv_eur) FILTER (WHERE status <> 'cancelled')`;
const FEES = `sum(fee_eur) FILTER (WHERE status = 'completed')`;
const WITH_SHOPS = 'market.orders o JOIN market.sellers s ON s.id = o.seller_id';

export const MARKET_QUESTIONS: readonly UnseenQuestion[] = [
  // Simple metrics
  ask('GMV last month', 'en', ['simple', 'period'], value(`SELECT ${GMV} FROM market.orders WHERE ordered_at >= TIMESTAMP '2025-05-01' AND ordered_at < TIMESTAMP '2025-06-01'`)),
  ask('How much did we earn in fees in 2024?', 'en', ['simple', 'verb', 'period'], value(`SELECT ${FEES} FROM market.orders WHERE ${Y2024}`)),
  ask('take rate in Q1 2025', 'en', ['simple', 'period'], value(`SELECT ${FEES} / nullif(${GMV}, 0) FROM market.orders WHERE ordered_at >= TIMESTAMP '2025-01-01' AND ordered_at < TIMESTAMP '2025-04-01'`)),
  ask('average order value this year', 'en', ['simple', 'period'], value(`SELECT ${GMV} / nullif(count(*) FILTER (WHERE status <> 'cancelled'), 0) FROM market.orders WHERE ordered_at >= TIMESTAMP '2025-01-01' AND ordered_at < TIMESTAMP '2025-06-19'`)),
  ask('refund rate last quarter', 'en', ['simple', 'period'], value(`SELECT count(*) FILTER (WHERE status = 'refunded') * 1.0 / nullif(count(*) FILTER (WHERE status <> 'cancelled'), 0) FROM market.orders WHERE ordered_at >= TIMESTAMP '2025-01-01' AND ordered_at < TIMESTAMP '2025-04-01'`)),
  ask('average rating in 2024', 'en', ['simple', 'period'], value(`SELECT avg(rating) FROM market.orders WHERE ${Y2024}`)),
  ask('How many shops sold something last month?', 'en', ['simple', 'verb', 'period'], value(`SELECT count(DISTINCT seller_id) FROM market.orders WHERE ordered_at >= TIMESTAMP '2025-05-01' AND ordered_at < TIMESTAMP '2025-06-01'`)),
  ask('how many listings were created in May 2025', 'en', ['simple', 'verb', 'synonym', 'period'], value(`SELECT count(*) FROM market.listings WHERE listed_at >= TIMESTAMP '2025-05-01' AND listed_at < TIMESTAMP '2025-06-01'`)),
  ask('items sold in 2024', 'en', ['simple', 'period'], value(`SELECT sum(items) FILTER (WHERE status <> 'cancelled') FROM market.orders WHERE ${Y2024}`)),
  ask('How many orders were refunded in 2024?', 'en', ['simple', 'derived_form', 'verb', 'period'], value(`SELECT count(*) FROM market.orders WHERE status = 'refunded' AND ${Y2024}`)),
  ask('How much did we refund in Q4 2024?', 'en', ['simple', 'derived_form', 'verb', 'period'], value(`SELECT sum(gmv_eur) FROM market.orders WHERE status = 'refunded' AND ordered_at >= TIMESTAMP '2024-10-01' AND ordered_at < TIMESTAMP '2025-01-01'`)),
  ask('average asking price of listings in 2024', 'en', ['simple', 'synonym', 'period'], value(`SELECT avg(price_eur) FROM market.listings WHERE listed_at >= TIMESTAMP '2024-01-01' AND listed_at < TIMESTAMP '2025-01-01'`)),

  // Breakdowns
  ask('GMV by category in 2024', 'en', ['breakdown', 'null_group', 'period'], rows(`SELECT category, ${GMV} FROM market.orders WHERE ${Y2024} GROUP BY 1`)),
  ask('orders by payment method last month', 'en', ['breakdown', 'period'], rows(`SELECT payment_method, count(*) FROM market.orders WHERE ordered_at >= TIMESTAMP '2025-05-01' AND ordered_at < TIMESTAMP '2025-06-01' GROUP BY 1`)),
  ask('fees by seller tier in 2024', 'en', ['breakdown', 'joined_value', 'null_group', 'period'], rows(`SELECT s.tier, sum(o.fee_eur) FILTER (WHERE o.status = 'completed') FROM ${WITH_SHOPS} WHERE o.${Y2024} GROUP BY 1`)),
  ask('average rating per buyer country in 2024', 'en', ['breakdown', 'direction', 'period'], rows(`SELECT buyer_country, avg(rating) FROM market.orders WHERE ${Y2024} GROUP BY 1`)),
  ask('GMV by month in 2024', 'en', ['breakdown', 'time_grain', 'period'], rows(`SELECT strftime(date_trunc('month', ordered_at), '%Y-%m-%d'), ${GMV} FROM market.orders WHERE ${Y2024} GROUP BY 1`)),
  ask('orders by status in Q1 2025', 'en', ['breakdown', 'period'], rows(`SELECT status, count(*) FROM market.orders WHERE ordered_at >= TIMESTAMP '2025-01-01' AND ordered_at < TIMESTAMP '2025-04-01' GROUP BY 1`)),

  // Filters on values, with direction
  ask('GMV sold by German sellers to French buyers in 2024', 'en', ['filter', 'direction', 'derived_form', 'verb', 'period'], value(`SELECT ${GMV} FROM market.orders WHERE seller_country = 'Germany' AND buyer_country = 'France' AND ${Y2024}`)),
  ask('orders from sellers in Spain to buyers in Portugal in 2024', 'en', ['filter', 'direction', 'period'], value(`SELECT count(*) FROM market.orders WHERE seller_country = 'Spain' AND buyer_country = 'Portugal' AND ${Y2024}`)),
  ask('GMV of buyers in the United States in Q1 2025', 'en', ['filter', 'direction', 'multi_word_value', 'period'], value(`SELECT ${GMV} FROM market.orders WHERE buyer_country = 'United States' AND ordered_at >= TIMESTAMP '2025-01-01' AND ordered_at < TIMESTAMP '2025-04-01'`)),
  ask('how many orders did sellers in united kingdom ship in 2024', 'en', ['filter', 'direction', 'casing', 'multi_word_value', 'verb', 'period'], value(`SELECT count(*) FROM market.orders WHERE seller_country = 'United Kingdom' AND ${Y2024}`)),
  ask('fees from Italian sellers in 2024', 'en', ['filter', 'direction', 'derived_form', 'period'], value(`SELECT ${FEES} FROM market.orders WHERE seller_country = 'Italy' AND ${Y2024}`)),
  ask('GMV of Vintage Clothing in 2024', 'en', ['filter', 'multi_word_value', 'period'], value(`SELECT ${GMV} FROM market.orders WHERE category = 'Vintage Clothing' AND ${Y2024}`)),
  ask('average rating of home & garden orders in 2024', 'en', ['filter', 'casing', 'multi_word_value', 'period'], value(`SELECT avg(rating) FROM market.orders WHERE category = 'Home & Garden' AND ${Y2024}`)),
  ask('orders paid by paypal in 2024', 'en', ['filter', 'casing', 'verb', 'period'], value(`SELECT count(*) FROM market.orders WHERE payment_method = 'PayPal' AND ${Y2024}`)),
  ask('GMV from Gold sellers in 2024', 'en', ['filter', 'joined_value', 'period'], value(`SELECT sum(o.gmv_eur) FILTER (WHERE o.status <> 'cancelled') FROM ${WITH_SHOPS} WHERE s.tier = 'Gold' AND o.${Y2024}`)),
  ask('orders shipped to the Netherlands in 2024', 'en', ['filter', 'direction', 'verb', 'period'], value(`SELECT count(*) FROM market.orders WHERE buyer_country = 'Netherlands' AND ${Y2024}`)),
  ask('GMV bought from Portuguese sellers in 2024', 'en', ['filter', 'direction', 'derived_form', 'verb', 'period'], value(`SELECT ${GMV} FROM market.orders WHERE seller_country = 'Portugal' AND ${Y2024}`)),
  ask('disputed orders in 2024', 'en', ['filter', 'period'], value(`SELECT count(*) FROM market.orders WHERE status = 'disputed' AND ${Y2024}`)),
  ask('new listings in Electronics last month', 'en', ['filter', 'period'], value(`SELECT count(*) FROM market.listings WHERE category = 'Electronics' AND listed_at >= TIMESTAMP '2025-05-01' AND listed_at < TIMESTAMP '2025-06-01'`)),

  // Top-N and bottom-N (a NULL group is not a member)
  ask('Which 3 categories had the most GMV in 2024?', 'en', ['top_n', 'null_group', 'period'], ranked(`SELECT category, ${GMV} AS v FROM market.orders WHERE category IS NOT NULL AND ${Y2024} GROUP BY 1 ORDER BY v DESC LIMIT 3`)),
  ask('the 5 seller countries with the lowest average rating in 2024', 'en', ['bottom_n', 'direction', 'period'], ranked(`SELECT seller_country, avg(rating) AS v FROM market.orders WHERE ${Y2024} GROUP BY 1 ORDER BY v ASC LIMIT 5`)),
  ask('top 3 buyer countries by orders last year', 'en', ['top_n', 'direction', 'period'], ranked(`SELECT buyer_country, count(*) AS n FROM market.orders WHERE ${Y2024} GROUP BY 1 ORDER BY n DESC LIMIT 3`)),
  ask('which payment method had the fewest orders in 2024', 'en', ['bottom_n', 'period'], ranked(`SELECT payment_method, count(*) AS n FROM market.orders WHERE ${Y2024} GROUP BY 1 ORDER BY n ASC LIMIT 1`)),
  ask('the 3 shops with the highest GMV in 2024', 'en', ['top_n', 'joined_value', 'period'], ranked(`SELECT s.shop_name, sum(o.gmv_eur) FILTER (WHERE o.status <> 'cancelled') AS v FROM ${WITH_SHOPS} WHERE o.${Y2024} GROUP BY 1 ORDER BY v DESC LIMIT 3`)),
  ask('which seller tier earned us the least fees in 2024', 'en', ['bottom_n', 'joined_value', 'null_group', 'verb', 'period'], ranked(`SELECT s.tier, sum(o.fee_eur) FILTER (WHERE o.status = 'completed') AS v FROM ${WITH_SHOPS} WHERE s.tier IS NOT NULL AND o.${Y2024} GROUP BY 1 ORDER BY v ASC LIMIT 1`)),

  // Periods: halves, ranges, "since", in five languages
  ask('GMV in the first half of 2024', 'en', ['period_half'], value(`SELECT ${GMV} FROM market.orders WHERE ordered_at >= TIMESTAMP '2024-01-01' AND ordered_at < TIMESTAMP '2024-07-01'`)),
  ask('fees H2 2024', 'en', ['period_half'], value(`SELECT ${FEES} FROM market.orders WHERE ordered_at >= TIMESTAMP '2024-07-01' AND ordered_at < TIMESTAMP '2025-01-01'`)),
  ask('orders from January to June 2024', 'en', ['period_range'], value(`SELECT count(*) FROM market.orders WHERE ordered_at >= TIMESTAMP '2024-01-01' AND ordered_at < TIMESTAMP '2024-07-01'`)),
  ask('GMV between March and May', 'en', ['period_range'], value(`SELECT ${GMV} FROM market.orders WHERE ordered_at >= TIMESTAMP '2025-03-01' AND ordered_at < TIMESTAMP '2025-06-01'`)),
  ask('active buyers since March 2024', 'en', ['period_range'], value(`SELECT count(DISTINCT buyer_id) FROM market.orders WHERE ordered_at >= TIMESTAMP '2024-03-01' AND ordered_at < TIMESTAMP '2025-06-19'`)),
  ask('GMV del primer semestre de 2024', 'es', ['period_half'], value(`SELECT ${GMV} FROM market.orders WHERE ordered_at >= TIMESTAMP '2024-01-01' AND ordered_at < TIMESTAMP '2024-07-01'`)),
  ask('commandes de janvier à juin 2024', 'fr', ['period_range', 'synonym'], value(`SELECT count(*) FROM market.orders WHERE ordered_at >= TIMESTAMP '2024-01-01' AND ordered_at < TIMESTAMP '2024-07-01'`)),
  ask('Gebühren im ersten Halbjahr 2024', 'de', ['period_half', 'synonym'], value(`SELECT ${FEES} FROM market.orders WHERE ordered_at >= TIMESTAMP '2024-01-01' AND ordered_at < TIMESTAMP '2024-07-01'`)),
  ask('GMV desde março de 2024', 'pt', ['period_range'], value(`SELECT ${GMV} FROM market.orders WHERE ordered_at >= TIMESTAMP '2024-03-01' AND ordered_at < TIMESTAMP '2025-06-19'`)),
  ask('GMV por categoría en 2024', 'es', ['breakdown', 'null_group', 'period'], rows(`SELECT category, ${GMV} FROM market.orders WHERE ${Y2024} GROUP BY 1`)),
  ask('Wie viele Bestellungen wurden 2024 erstattet?', 'de', ['filter', 'derived_form', 'verb', 'period'], value(`SELECT count(*) FROM market.orders WHERE status = 'refunded' AND ${Y2024}`)),
  ask('panier moyen au deuxième semestre 2024', 'fr', ['period_half', 'synonym'], value(`SELECT ${GMV} / nullif(count(*) FILTER (WHERE status <> 'cancelled'), 0) FROM market.orders WHERE ordered_at >= TIMESTAMP '2024-07-01' AND ordered_at < TIMESTAMP '2025-01-01'`)),

  // Must be declined
  decline('What is our customer acquisition cost?', 'en', [], 'out_of_scope', 'no marketing spend'),
  decline('How many visitors came to the site last week?', 'en', ['verb', 'period'], 'out_of_scope', 'no traffic data'),
  decline('Which sellers will churn next month?', 'en', ['period'], 'out_of_scope', 'a prediction'),
  decline('profit margin by category in 2024', 'en', ['period'], 'out_of_scope', 'no cost of goods'),
  decline('GMV from buyers who ordered more than 5 times in 2024', 'en', ['period'], 'inexpressible', 'a condition on a per-buyer aggregate'),
  decline('orders rated below 3 stars in 2024', 'en', ['period'], 'inexpressible', 'a numeric threshold on the rating'),
  decline('cross-border GMV in 2024', 'en', ['period'], 'inexpressible', 'seller country differs from buyer country: a comparison of two columns'),
  decline('GMV between Germany and France in 2024', 'en', ['direction', 'period'], 'ambiguous', 'either country may be the seller'),
  decline('orders involving Spain in 2024', 'en', ['direction', 'period'], 'ambiguous', 'Spain as seller or buyer country'),
];
