// A freight warehouse for the value index: shipments (restricted by region through a data key) joined to
// customers, whose segment, city and name are values the planner must find. 500 customer names, so a
// name sorts far beyond the 200 values per dimension the planner once knew; one city per region, so a
// value seen by the east is never seen by the west.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { IDENTITY_GENERATION } from '../../src/identity/generations.js';
import type { Services } from '../../src/services.js';
import type { SeededWorkspace } from './app.js';

export const VALUES_CONNECTION = 'freight';
export const VALUES_FILE = 'freight.duckdb';
export const CUSTOMER_COUNT = 500;

const DAY_MS = 86_400_000;

/** Customer i: segment, city and region by its number; east cities are never west cities. */
export function customer(i: number): { name: string; segment: string; city: string; region: string } {
  const region = i % 2 === 0 ? 'east' : 'west';
  const cities = region === 'east' ? ['New York', 'Boston', 'Philadelphia'] : ['Seattle', 'Portland', 'Sacramento'];
  return { name: `Firm ${String(i).padStart(4, '0')}`, segment: ['Enterprise', 'Small Business', 'Consumer'][i % 3]!, city: cities[i % 3]!, region };
}

/**
 * Noon (UTC, the workspace's zone) on the Wednesday of the calendar week before `now`'s, as the
 * warehouse's "YYYY-MM-DD HH:MM:SS": inside "last week" whichever day of the week `now` is (weeks
 * start on Monday).
 */
export function inLastWeek(now: Date): string {
  const monday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - ((now.getUTCDay() + 6) % 7));
  return new Date(monday - 5 * DAY_MS + DAY_MS / 2).toISOString().slice(0, 19).replace('T', ' ');
}

/** One shipment of 10.0 per customer, last week, shipped in the customer's region. */
function statements(now: Date): string[] {
  const at = inLastWeek(now);
  const customers = Array.from({ length: CUSTOMER_COUNT }, (_, i) => {
    const c = customer(i);
    return `(${i}, '${c.name}', '${c.segment}', '${c.city}')`;
  });
  const shipments = Array.from({ length: CUSTOMER_COUNT }, (_, i) => `(${i}, ${i}, '${customer(i).region}', '${at}', 10.0)`);
  return [
    'CREATE SCHEMA logistics',
    'CREATE TABLE logistics.customers (id INTEGER PRIMARY KEY, name VARCHAR, segment VARCHAR, city VARCHAR)',
    `INSERT INTO logistics.customers VALUES ${customers.join(', ')}`,
    'CREATE TABLE logistics.shipments (id INTEGER PRIMARY KEY, customer_id INTEGER, region VARCHAR, shipped_at TIMESTAMP, amount DOUBLE)',
    `INSERT INTO logistics.shipments VALUES ${shipments.join(', ')}`,
  ];
}

export const VALUES_CML = `
node shipments {
  label: "Shipments"
  domain: freight
  connection: ${VALUES_CONNECTION}
  table: logistics.shipments
  dimension id          { type: number  primary_key: true  hidden: true }
  dimension customer_id { type: number  hidden: true }
  dimension region      { type: string }
  dimension shipped_at  { type: timestamp }
  dimension amount      { type: number  hidden: true }
  measure billed { type: sum  sql: \${amount} }
  join customers {
    relationship: many_to_one
    on: \${shipments.customer_id} = \${customers.id}
  }
  data_key region { dimension: region  attribute: region }
}

node customers {
  label: "Customers"
  domain: freight
  connection: ${VALUES_CONNECTION}
  table: logistics.customers
  dimension id      { type: number  primary_key: true  hidden: true }
  dimension name    { type: string  label: "Customer name" }
  dimension segment { type: string }
  dimension city    { type: string }
}

reveal freight {
  domain: freight
  label: "Freight"
  base: shipments
  time: shipments.shipped_at
  metric revenue { label: "Revenue"  unit: currency  measure: shipments.billed }
}
`;

/**
 * Runs `sql` on the workspace's freight file in one transaction, with the service's own handles closed
 * before and after: a value build in the background may open the file meanwhile, and a handle opened
 * halfway would go on reading it as it was then (a new customer, say, without its shipment).
 */
export async function writeFreight(services: Services, workspaceId: string, sql: readonly string[]): Promise<void> {
  await services.connections.registry.closeAll();
  const directory = services.connections.directoryOf(workspaceId);
  await mkdir(directory, { recursive: true });
  const instance = await DuckDBInstance.create(path.join(directory, VALUES_FILE));
  try {
    const connection = await instance.connect();
    try {
      await connection.run('BEGIN TRANSACTION');
      for (const statement of sql) await connection.run(statement);
      await connection.run('COMMIT');
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
  await services.connections.registry.closeAll();
}

/** Loads the warehouse, adds its connection, deploys the model and gives the luminary every region. */
export async function setUpFreight(services: Services, ws: SeededWorkspace, cml = VALUES_CML): Promise<void> {
  await writeFreight(services, ws.id, statements(services.clock.now()));
  await services.connections.create(ws.id, { name: VALUES_CONNECTION, engine: 'duckdb', settings: { path: VALUES_FILE } });
  await deployFreight(services, ws, cml);
  await services.store.db.updateTable('memberships').set({ attributes: JSON.stringify({ region: '*' }) }).where('workspace_id', '=', ws.id).where('user_id', '=', ws.members.luminary.id).execute();
  await services.shared.bump(IDENTITY_GENERATION);
}

export async function deployFreight(services: Services, ws: SeededWorkspace, cml = VALUES_CML): Promise<void> {
  const lum = ws.members.luminary;
  await services.models.deploy({ workspaceId: ws.id, userId: lum.id, email: lum.email }, 'freight', [{ path: 'freight.cml', content: cml }]);
}
