// Questions over the demo catalog with the plan a careful analyst would write, and how the offline
// planner is scored against them. Period phrases are absent: they are removed before planning.
import type { AnswerPlan, GovernedPlan } from '../../src/core/answer/plan.js';
import { COUNTRIES, REGIONS, SEGMENTS, CHANNELS, ORDER_STATUSES } from '../../src/core/demo/vocabulary.js';

export const CATEGORIES = ['simple', 'dimension', 'filter', 'top_n', 'several', 'non_english', 'typo_paraphrase', 'ambiguous', 'out_of_scope'] as const;
export type Category = (typeof CATEGORIES)[number];

type Expected = Omit<GovernedPlan, 'matchedBy' | 'kind'> | 'no_match';

export interface EvalCase {
  readonly question: string;
  readonly category: Category;
  readonly expected: Expected;
}

const COUNTRY_NAMES = Object.values(COUNTRIES).flatMap((list) => list.map(([country]) => country));
const DEMO_CUSTOMER_VALUES: ReadonlyMap<string, readonly string[]> = new Map([
  ['region', [...REGIONS]],
  ['country', COUNTRY_NAMES],
  ['segment', [...SEGMENTS]],
]);
const DEMO_SALES_VALUES: ReadonlyMap<string, readonly string[]> = new Map([
  ['status', [...ORDER_STATUSES]],
  ['channel', [...CHANNELS]],
  ['ship_region', [...REGIONS]],
  ['customers.region', [...REGIONS]],
  ['customers.country', COUNTRY_NAMES],
  ['customers.segment', [...SEGMENTS]],
]);
const NO_VALUES: ReadonlyMap<string, readonly string[]> = new Map();

/** Distinct values of the demo's string dimensions, as the caller would look them up from the data. */
export function demoValues(reveal: string): ReadonlyMap<string, readonly string[]> {
  if (reveal === 'customers') return DEMO_CUSTOMER_VALUES;
  if (reveal === 'sales') return DEMO_SALES_VALUES;
  return NO_VALUES;
}

function plan(reveal: string, metrics: string[], more: Partial<Omit<GovernedPlan, 'kind' | 'reveal' | 'metrics' | 'matchedBy'>> = {}): Expected {
  return { reveal, metrics, dimensions: more.dimensions ?? [], filters: more.filters ?? [], ...(more.sort ? { sort: more.sort } : {}), ...(more.limit ? { limit: more.limit } : {}) };
}
export const sales = (metrics: string[], more?: Parameters<typeof plan>[2]): Expected => plan('sales', metrics, more);
export const customers = (metrics: string[], more?: Parameters<typeof plan>[2]): Expected => plan('customers', metrics, more);
export const eq = (field: string, value: string) => ({ field, operator: 'equals' as const, value });
export const top = (metric: string, limit: number, dimension: string, direction: 'asc' | 'desc' = 'desc') => ({ dimensions: [dimension], sort: { field: metric, direction }, limit });

export const c = (category: Category, question: string, expected: Expected): EvalCase => ({ question, category, expected });

export const EVAL_SET: readonly EvalCase[] = [
  // Simple metric
  c('simple', 'revenue', sales(['revenue'])),
  c('simple', 'What is our revenue?', sales(['revenue'])),
  c('simple', 'how much revenue did we make', sales(['revenue'])),
  c('simple', 'total sales', sales(['revenue'])),
  c('simple', 'gross revenue', sales(['gross_revenue'])),
  c('simple', 'how many orders', sales(['orders'])),
  c('simple', 'number of orders', sales(['orders'])),
  c('simple', 'completed orders', sales(['completed_orders'])),
  c('simple', 'average order value', sales(['average_order_value'])),
  c('simple', 'AOV', sales(['average_order_value'])),
  c('simple', 'how many buyers', sales(['buyers'])),
  c('simple', 'total discounts', sales(['discounts'])),
  c('simple', 'cancellation rate', sales(['cancellation_rate'])),
  c('simple', 'how many customers do we have', customers(['customers'])),
  c('simple', 'business customers', customers(['business_customers'])),
  c('simple', 'enterprise customers', customers(['enterprise_customers'])),
  c('simple', 'business share', customers(['business_share'])),
  c('simple', 'how many countries', customers(['countries'])),
  c('simple', 'turnover', sales(['revenue'])),
  c('simple', 'total bookings', sales(['gross_revenue'])),
  // By dimension
  c('dimension', 'revenue by channel', sales(['revenue'], { dimensions: ['channel'] })),
  c('dimension', 'orders by status', sales(['orders'], { dimensions: ['status'] })),
  c('dimension', 'revenue by region', sales(['revenue'], { dimensions: ['ship_region'] })),
  c('dimension', 'revenue per customer segment', sales(['revenue'], { dimensions: ['customers.segment'] })),
  c('dimension', 'orders broken down by channel', sales(['orders'], { dimensions: ['channel'] })),
  c('dimension', 'buyers for each region', sales(['buyers'], { dimensions: ['ship_region'] })),
  c('dimension', 'revenue by month', sales(['revenue'], { dimensions: ['created_at.month'] })),
  c('dimension', 'orders by week', sales(['orders'], { dimensions: ['created_at.week'] })),
  c('dimension', 'monthly revenue', sales(['revenue'], { dimensions: ['created_at.month'] })),
  c('dimension', 'customers by segment', customers(['customers'], { dimensions: ['segment'] })),
  c('dimension', 'customers by country', customers(['customers'], { dimensions: ['country'] })),
  c('dimension', 'customers by region', customers(['customers'], { dimensions: ['region'] })),
  c('dimension', 'new customers by quarter', 'no_match'),
  c('dimension', 'customers by year', customers(['customers'], { dimensions: ['signup_at.year'] })),
  c('dimension', 'revenue by channel and region', sales(['revenue'], { dimensions: ['channel', 'ship_region'] })),
  c('dimension', 'cancellation rate by channel', sales(['cancellation_rate'], { dimensions: ['channel'] })),
  c('dimension', 'average order value per country', sales(['average_order_value'], { dimensions: ['customers.country'] })),
  c('dimension', 'discounts by day', sales(['discounts'], { dimensions: ['created_at.day'] })),
  c('dimension', 'revenue by customer region', sales(['revenue'], { dimensions: ['customers.region'] })),
  c('dimension', 'enterprise customers by country', customers(['enterprise_customers'], { dimensions: ['country'] })),
  // Filter on values
  c('filter', 'revenue in Europe', sales(['revenue'], { filters: [eq('ship_region', 'Europe')] })),
  c('filter', 'web orders', sales(['orders'], { filters: [eq('channel', 'web')] })),
  c('filter', 'mobile revenue', sales(['revenue'], { filters: [eq('channel', 'mobile')] })),
  c('filter', 'pending orders', sales(['orders'], { filters: [eq('status', 'pending')] })),
  c('filter', 'cancelled orders by channel', sales(['orders'], { dimensions: ['channel'], filters: [eq('status', 'cancelled')] })),
  c('filter', 'revenue in North America by channel', sales(['revenue'], { dimensions: ['channel'], filters: [eq('ship_region', 'North America')] })),
  c('filter', 'revenue in Germany', sales(['revenue'], { filters: [eq('customers.country', 'Germany')] })),
  c('filter', 'orders from the marketplace channel', sales(['orders'], { filters: [eq('channel', 'marketplace')] })),
  c('filter', 'customers in Brazil', customers(['customers'], { filters: [eq('country', 'Brazil')] })),
  c('filter', 'consumer customers by region', customers(['customers'], { dimensions: ['region'], filters: [eq('segment', 'consumer')] })),
  c('filter', 'small business customers', customers(['customers'], { filters: [eq('segment', 'small_business')] })),
  c('filter', 'web and mobile orders', sales(['orders'], { filters: [{ field: 'channel', operator: 'in', value: ['web', 'mobile'] }] })),
  c('filter', 'refunded orders in Asia Pacific', sales(['orders'], { filters: [eq('status', 'refunded'), eq('ship_region', 'Asia Pacific')] })),
  // Top N
  c('top_n', 'top 5 regions by revenue', sales(['revenue'], top('revenue', 5, 'ship_region'))),
  c('top_n', 'top 3 channels by orders', sales(['orders'], top('orders', 3, 'channel'))),
  c('top_n', 'the 5 best countries by revenue', sales(['revenue'], top('revenue', 5, 'customers.country'))),
  c('top_n', 'worst 2 channels by cancellation rate', sales(['cancellation_rate'], top('cancellation_rate', 2, 'channel', 'asc'))),
  c('top_n', 'bottom 3 regions by buyers', sales(['buyers'], top('buyers', 3, 'ship_region', 'asc'))),
  c('top_n', 'top 10 countries by customers', customers(['customers'], top('customers', 10, 'country'))),
  c('top_n', 'top three segments by revenue', sales(['revenue'], top('revenue', 3, 'customers.segment'))),
  c('top_n', 'los 3 mejores canales por ventas', sales(['revenue'], top('revenue', 3, 'channel'))),
  c('top_n', 'les 5 meilleurs pays par chiffre d\'affaires', sales(['revenue'], top('revenue', 5, 'customers.country'))),
  c('top_n', 'top 5 by revenue', 'no_match'),
  // Several metrics
  c('several', 'revenue and orders', sales(['revenue', 'orders'])),
  c('several', 'orders and revenue by channel', sales(['orders', 'revenue'], { dimensions: ['channel'] })),
  c('several', 'revenue, discounts and buyers', sales(['revenue', 'discounts', 'buyers'])),
  c('several', 'gross revenue and discounts', sales(['gross_revenue', 'discounts'])),
  c('several', 'customers and countries', customers(['customers', 'countries'])),
  c('several', 'enterprise customers and business share by region', customers(['enterprise_customers', 'business_share'], { dimensions: ['region'] })),
  c('several', 'completed orders and cancellation rate', sales(['completed_orders', 'cancellation_rate'])),
  c('several', 'revenue and customers', 'no_match'),
  // Non-English
  c('non_english', 'ventas por canal', sales(['revenue'], { dimensions: ['channel'] })),
  c('non_english', 'cuántos pedidos', sales(['orders'])),
  c('non_english', 'ventas brutas por región', sales(['gross_revenue'], { dimensions: ['ship_region'] })),
  c('non_english', 'ticket medio por país', sales(['average_order_value'], { dimensions: ['customers.country'] })),
  c('non_english', 'clientes por segmento', customers(['customers'], { dimensions: ['segment'] })),
  c('non_english', 'tasa de cancelación por canal', sales(['cancellation_rate'], { dimensions: ['channel'] })),
  c('non_english', "chiffre d'affaires par canal", sales(['revenue'], { dimensions: ['channel'] })),
  c('non_english', 'combien de commandes', sales(['orders'])),
  c('non_english', 'panier moyen par mois', sales(['average_order_value'], { dimensions: ['created_at.month'] })),
  c('non_english', "taux d'annulation", sales(['cancellation_rate'])),
  c('non_english', 'Umsatz nach Kanal', sales(['revenue'], { dimensions: ['channel'] })),
  c('non_english', 'Bestellungen pro Monat', sales(['orders'], { dimensions: ['created_at.month'] })),
  c('non_english', 'Kunden nach Land', customers(['customers'], { dimensions: ['country'] })),
  c('non_english', 'Bruttoumsatz', sales(['gross_revenue'])),
  c('non_english', 'Käufer nach Region', sales(['buyers'], { dimensions: ['ship_region'] })),
  c('non_english', 'faturamento por canal', sales(['revenue'], { dimensions: ['channel'] })),
  c('non_english', 'quantos compradores', sales(['buyers'])),
  c('non_english', 'ticket médio', sales(['average_order_value'])),
  // Typos and paraphrases
  c('typo_paraphrase', 'reveneu', sales(['revenue'])),
  c('typo_paraphrase', 'revenue by chanel', sales(['revenue'], { dimensions: ['channel'] })),
  c('typo_paraphrase', 'how many custmers', customers(['customers'])),
  c('typo_paraphrase', 'cancelation rate', sales(['cancellation_rate'])),
  c('typo_paraphrase', 'discounst by region', sales(['discounts'], { dimensions: ['ship_region'] })),
  c('typo_paraphrase', 'number of purchases', sales(['orders'])),
  c('typo_paraphrase', 'how many shoppers', sales(['buyers'])),
  c('typo_paraphrase', 'average basket size', sales(['average_order_value'])),
  c('typo_paraphrase', 'fulfilled orders', sales(['completed_orders'])),
  c('typo_paraphrase', 'refund rate', sales(['cancellation_rate'])),
  c('typo_paraphrase', 'key accounts', customers(['enterprise_customers'])),
  c('typo_paraphrase', 'B2B customers', customers(['business_customers'])),
  c('typo_paraphrase', 'markdowns per channel', sales(['discounts'], { dimensions: ['channel'] })),
  c('typo_paraphrase', 'how many markets are we in', customers(['countries'])),
  // Recognised only from a description ("amount paid"): suggested, never governed.
  c('typo_paraphrase', 'how much was paid', 'no_match'),
  // Ambiguous
  c('ambiguous', 'business', 'no_match'),
  c('ambiguous', 'accounts by segment and share', 'no_match'),
  c('ambiguous', 'business by region', 'no_match'),
  c('ambiguous', 'buyers and customers', 'no_match'),
  c('ambiguous', 'enterprise', 'no_match'),
  // Out of scope: must never be governed
  c('out_of_scope', 'churn rate by cohort', 'no_match'),
  c('out_of_scope', 'employee headcount', 'no_match'),
  c('out_of_scope', 'weather tomorrow', 'no_match'),
  c('out_of_scope', 'what is the meaning of life', 'no_match'),
  c('out_of_scope', 'customer lifetime value', 'no_match'),
  c('out_of_scope', 'average salary by department', 'no_match'),
  c('out_of_scope', 'profit margin by product', 'no_match'),
  c('out_of_scope', 'website traffic', 'no_match'),
  c('out_of_scope', 'net promoter score', 'no_match'),
  c('out_of_scope', 'support tickets by priority', 'no_match'),
  c('out_of_scope', 'inventory by warehouse', 'no_match'),
  c('out_of_scope', 'marketing spend per campaign', 'no_match'),
  c('out_of_scope', 'return rate', 'no_match'),
  c('out_of_scope', 'revenue by product category', 'no_match'),
  c('out_of_scope', 'conversion rate', 'no_match'),
  c('out_of_scope', 'stock price of apple', 'no_match'),
  c('out_of_scope', 'hello', 'no_match'),
  c('out_of_scope', 'ad clicks by campaign', 'no_match'),
];

/** Whether `actual` is the expected plan (matchedBy aside: it is how, not what). */
export function isCorrect(actual: AnswerPlan, expected: Expected): boolean {
  if (expected === 'no_match') return actual.kind === 'no_match';
  if (actual.kind !== 'governed') return false;
  const { kind: _kind, matchedBy: _matchedBy, ...rest } = actual;
  return JSON.stringify(canonical(rest)) === JSON.stringify(canonical(expected));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, canonical(v)]));
  }
  return value;
}

export interface EvalReport {
  readonly total: number;
  readonly accuracy: number;
  readonly byCategory: ReadonlyMap<Category, { readonly total: number; readonly correct: number }>;
  /** Share of out-of-scope questions that got a governed plan. */
  readonly falseGovernedRate: number;
  /** Accuracy among governed plans matched by name, label or synonym (what a caller calls high confidence). */
  readonly highConfidence: { readonly total: number; readonly accuracy: number };
  readonly failures: ReadonlyArray<{ readonly question: string; readonly category: Category; readonly actual: AnswerPlan }>;
}

export function scoreEval(plan: (question: string) => AnswerPlan, cases: readonly EvalCase[] = EVAL_SET): EvalReport {
  const byCategory = new Map<Category, { total: number; correct: number }>(CATEGORIES.map((category) => [category, { total: 0, correct: 0 }]));
  const failures: Array<{ question: string; category: Category; actual: AnswerPlan }> = [];
  let correct = 0;
  let outOfScopeGoverned = 0;
  let confident = 0;
  let confidentCorrect = 0;
  for (const testCase of cases) {
    const actual = plan(testCase.question);
    const ok = isCorrect(actual, testCase.expected);
    const bucket = byCategory.get(testCase.category)!;
    bucket.total++;
    if (ok) {
      bucket.correct++;
      correct++;
    } else {
      failures.push({ question: testCase.question, category: testCase.category, actual });
    }
    if (testCase.category === 'out_of_scope' && actual.kind === 'governed') outOfScopeGoverned++;
    if (actual.kind === 'governed' && actual.matchedBy !== 'description') {
      confident++;
      if (ok) confidentCorrect++;
    }
  }
  const outOfScope = byCategory.get('out_of_scope')!.total;
  return {
    total: cases.length,
    accuracy: correct / cases.length,
    byCategory,
    falseGovernedRate: outOfScope === 0 ? 0 : outOfScopeGoverned / outOfScope,
    highConfidence: { total: confident, accuracy: confident === 0 ? 1 : confidentCorrect / confident },
    failures,
  };
}
