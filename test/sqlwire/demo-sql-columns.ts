// The demo model's tables as the random SQL queries see them: for each table its dimensions (with the
// values and text fragments conditions draw from) and its measures (with a rough size, from which
// HAVING thresholds are drawn so that they keep some groups and drop others). The data these describe is
// DIFFERENTIAL_ORDERS orders over the two years before the test clock's instant.
// Integer columns and measures are compared with integers only: on a PostgreSQL warehouse a fraction
// bound to a comparison with an integer (`quantity = 3.5`, `SUM(quantity) > 87.5`) fails in C as well
// (the parameter is read as the integer type), which is not the SQL interface's to answer.
import { CHANNELS, ORDER_STATUSES, REGIONS, SEGMENTS } from '../../src/core/demo/index.js';
import type { MeasureType } from '../../src/core/semantic/model.js';

export interface DimensionSpec {
  /** The column's name: the field id (`status`, `customers.region`). */
  readonly name: string;
  readonly type: 'string' | 'number' | 'timestamp';
  /** Values an equality or IN draws from (string dimensions), a few of them absent from the data. */
  readonly values?: readonly string[];
  /** Pieces of values for LIKE patterns besides pieces of `values` (string dimensions with many values). */
  readonly fragments?: readonly string[];
  /** [min, max] of the values (number dimensions). */
  readonly range?: readonly [number, number];
  /** Integer values in the warehouse (compared with integers only, see below). */
  readonly integer?: boolean;
}

export interface MeasureSpec {
  readonly name: string;
  readonly type: MeasureType;
  /** About the measure's value over one member's whole data; undefined for ratios, which do not grow with the rows. */
  readonly total?: number;
  /** About the value of a ratio or an average. */
  readonly typical?: number;
  /** A sum of integers (bigint in the warehouse), compared with integers only. */
  readonly integer?: boolean;
}

export interface TableSpec {
  readonly name: string;
  /** The table's schema besides `public` (the nodes' domain). */
  readonly domain: string;
  readonly weight: number;
  readonly dimensions: readonly DimensionSpec[];
  readonly measures: readonly MeasureSpec[];
  /** The column holding `orders.ship_region`, the data key's dimension, when the table has it. */
  readonly regionColumn: string;
}

const CATEGORIES = ['Electronics', 'Home & Kitchen', 'Clothing', 'Sports & Outdoors', 'Books', 'Beauty', 'Toys & Games', 'Grocery', 'Garden'];
const COUNTRIES = ['United States', 'Canada', 'Germany', 'United Kingdom', 'France', 'Japan', 'Brazil', 'India', 'Iceland'];
// Pieces of customer and product names ("Olivia O'Brien", "Lars Müller", "Nova Tent 3 Plus"), with LIKE's
// special characters and letters of either case.
const NAME_FRAGMENTS = ['an', 'Li', "O'B", "'", ' ', 'mü', 'ez', 'son', 'EL', 'a S', 'z G', 'ia', 'é', 'o_', '50%', 'ar'];
const PRODUCT_FRAGMENTS = ['Pro', 'Mini', ' Max', 'ee', 'eco', 'Set', 'Tea', ' 1', '00', ' ', '&', 'o', '_', 'Plus'];

const string = (name: string, values: readonly string[], fragments?: readonly string[]): DimensionSpec => ({ name, type: 'string', values, ...(fragments ? { fragments } : {}) });
const timestamp = (name: string): DimensionSpec => ({ name, type: 'timestamp' });
const number = (name: string, range: readonly [number, number], integer = false): DimensionSpec => ({ name, type: 'number', range, integer });

const ORDER_DIMENSIONS = (prefix: string): DimensionSpec[] => [
  string(`${prefix}status`, [...ORDER_STATUSES, 'on_hold']),
  string(`${prefix}channel`, [...CHANNELS, 'phone']),
  string(`${prefix}ship_region`, [...REGIONS]),
  timestamp(`${prefix}created_at`),
];
const CUSTOMER_DIMENSIONS = (prefix: string): DimensionSpec[] => [
  string(`${prefix}region`, [...REGIONS, 'Antarctica']),
  string(`${prefix}segment`, [...SEGMENTS, 'government']),
  string(`${prefix}country`, COUNTRIES),
  string(`${prefix}name`, ["Olivia O'Brien", 'Liam Smith', 'Hiro Tanaka'], NAME_FRAGMENTS),
  timestamp(`${prefix}signup_at`),
];
const PRODUCT_DIMENSIONS = (prefix: string): DimensionSpec[] => [
  string(`${prefix}category`, CATEGORIES),
  string(`${prefix}name`, ['Nova Tent 3', 'Classic Kettle 2 Plus'], PRODUCT_FRAGMENTS),
  number(`${prefix}price`, [2, 1500]),
  number(`${prefix}cost`, [1, 900]),
];
const ITEM_DIMENSIONS = (prefix: string): DimensionSpec[] => [number(`${prefix}quantity`, [1, 5], true), number(`${prefix}unit_price`, [2, 1500]), number(`${prefix}line_total`, [2, 7500])];

const ORDER_MEASURES = (prefix: string): MeasureSpec[] => [
  { name: `${prefix}order_count`, type: 'count', total: 700 },
  { name: `${prefix}completed_orders`, type: 'count', total: 450 },
  { name: `${prefix}cancelled_orders`, type: 'count', total: 90 },
  { name: `${prefix}gross_revenue`, type: 'sum', total: 150_000 },
  { name: `${prefix}completed_revenue`, type: 'sum', total: 100_000 },
  { name: `${prefix}discount_total`, type: 'sum', total: 4_000 },
  { name: `${prefix}buyers`, type: 'count_distinct', total: 400 },
  { name: `${prefix}average_order_value`, type: 'number', typical: 200 },
];
const CUSTOMER_MEASURES = (prefix: string): MeasureSpec[] => [
  { name: `${prefix}customer_count`, type: 'count', total: 400 },
  { name: `${prefix}business_customers`, type: 'count', total: 80 },
  { name: `${prefix}countries`, type: 'count_distinct', total: 20 },
];
const PRODUCT_MEASURES = (prefix: string): MeasureSpec[] => [
  { name: `${prefix}product_count`, type: 'count', total: 200 },
  { name: `${prefix}average_price`, type: 'avg', typical: 90 },
];
const ITEM_MEASURES = (prefix: string): MeasureSpec[] => [
  { name: `${prefix}item_count`, type: 'count', total: 1_000 },
  { name: `${prefix}units_sold`, type: 'sum', total: 1_400, integer: true },
  { name: `${prefix}item_revenue`, type: 'sum', total: 150_000 },
];

export const TABLES: readonly TableSpec[] = [
  {
    name: 'orders',
    domain: 'commerce',
    weight: 6,
    dimensions: [...ORDER_DIMENSIONS(''), ...CUSTOMER_DIMENSIONS('customers.'), ...PRODUCT_DIMENSIONS('products.').slice(0, 1)],
    measures: [...ORDER_MEASURES(''), ...CUSTOMER_MEASURES('customers.'), ...ITEM_MEASURES('order_items.').slice(1, 2)],
    regionColumn: 'ship_region',
  },
  {
    name: 'order_items',
    domain: 'commerce',
    weight: 2,
    dimensions: [...ITEM_DIMENSIONS(''), ...PRODUCT_DIMENSIONS('products.'), ...ORDER_DIMENSIONS('orders.'), ...CUSTOMER_DIMENSIONS('customers.').slice(0, 2)],
    measures: [...ITEM_MEASURES(''), ...ORDER_MEASURES('orders.').slice(0, 4), ...PRODUCT_MEASURES('products.')],
    regionColumn: 'orders.ship_region',
  },
  {
    name: 'customers',
    domain: 'commerce',
    weight: 1,
    dimensions: [...CUSTOMER_DIMENSIONS(''), ...ORDER_DIMENSIONS('orders.')],
    measures: [...CUSTOMER_MEASURES(''), ...ORDER_MEASURES('orders.').slice(0, 4)],
    regionColumn: 'orders.ship_region',
  },
  {
    name: 'products',
    domain: 'commerce',
    weight: 1,
    dimensions: [...PRODUCT_DIMENSIONS(''), ...ITEM_DIMENSIONS('order_items.').slice(0, 1), ...ORDER_DIMENSIONS('orders.').slice(1)],
    measures: [...PRODUCT_MEASURES(''), ...ITEM_MEASURES('order_items.'), ...ORDER_MEASURES('orders.').slice(0, 1)],
    regionColumn: 'orders.ship_region',
  },
];
