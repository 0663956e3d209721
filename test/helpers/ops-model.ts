// A small operations warehouse and its CML model, written for questions the demo cannot ask: tickets
// whose team is often unknown (NULL), metrics in minutes, km, kg, °C and mm, a snapshot metric ("open
// tickets", as of now) on a time-bound reveal, and a reveal without a time dimension (vehicles). The
// same rows load into DuckDB or PostgreSQL, so answers can be checked on both.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import { IDENTITY_GENERATION } from '../../src/identity/generations.js';
import type { Services } from '../../src/services.js';
import type { SeededWorkspace } from './app.js';

export const OPS_CONNECTION = 'ops';
const DAY_MS = 86_400_000;

/** "YYYY-MM-DD HH:MM:SS" (UTC) of `days` days before `now`, at noon. */
function daysAgo(now: Date, days: number): string {
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 12) - days * DAY_MS);
  return at.toISOString().slice(0, 19).replace('T', ' ');
}

interface Ticket {
  team: string | null;
  region: string;
  status: string;
  daysAgo: number;
  minutes: number;
}

/**
 * Within the last 30 days (three days ago): 20 tickets with no team (resolved in 1 minute each),
 * alpha 15 (30 min), beta 10 (40), gamma 8 (50), delta 5 (60); 4 of alpha's and 3 of beta's still open.
 * 400 days ago: 6 more of alpha's, still open. Every ticket drove 12.5 km and carried 3.25 kg.
 */
export function tickets(): Ticket[] {
  const rows: Ticket[] = [];
  const add = (team: string | null, count: number, minutes: number, open: number, ago = 3) => {
    for (let i = 0; i < count; i++) rows.push({ team, region: i % 2 ? 'south' : 'north', status: i < open ? 'open' : 'closed', daysAgo: ago, minutes });
  };
  add(null, 20, 1, 0);
  add('alpha', 15, 30, 4);
  add('beta', 10, 40, 3);
  add('gamma', 8, 50, 0);
  add('delta', 5, 60, 0);
  add('alpha', 6, 30, 6, 400);
  return rows;
}

export const OPS_FIGURES = {
  /** In the last 30 days. */
  tickets: 58,
  resolutionMinutes: (20 * 1 + 15 * 30 + 10 * 40 + 8 * 50 + 5 * 60) / 58,
  km: 58 * 12.5,
  kg: 58 * 3.25,
  /** Open now, whenever opened. */
  openTickets: 13,
  /** Average of 6.5 and 8 °C; 3.25 + 1.05 mm. */
  temperature: 7.25,
  rainfall: 4.3,
  vehicles: 7,
};

const quote = (value: string | number | null) => (value === null ? 'NULL' : typeof value === 'number' ? String(value) : `'${value}'`);

function statements(now: Date): string[] {
  const ticketRows = tickets().map((t, i) => `(${i + 1}, ${quote(t.team)}, ${quote(t.region)}, ${quote(t.status)}, ${quote(daysAgo(now, t.daysAgo))}, ${t.minutes}, 12.5, 3.25)`);
  return [
    'CREATE SCHEMA ops',
    'CREATE TABLE ops.tickets (id INTEGER PRIMARY KEY, team VARCHAR(20), region VARCHAR(20), status VARCHAR(20), opened_at TIMESTAMP, minutes DOUBLE PRECISION, km DOUBLE PRECISION, kg DOUBLE PRECISION)',
    `INSERT INTO ops.tickets VALUES ${ticketRows.join(', ')}`,
    'CREATE TABLE ops.readings (id INTEGER PRIMARY KEY, station VARCHAR(20), reading_at TIMESTAMP, temp_c DOUBLE PRECISION, rain_mm DOUBLE PRECISION)',
    `INSERT INTO ops.readings VALUES (1, 'harbour', ${quote(daysAgo(now, 3))}, 6.5, 3.25), (2, 'hill', ${quote(daysAgo(now, 4))}, 8, 1.05)`,
    'CREATE TABLE ops.vehicles (id INTEGER PRIMARY KEY, depot VARCHAR(20))',
    "INSERT INTO ops.vehicles VALUES (1, 'east'), (2, 'east'), (3, 'east'), (4, 'west'), (5, NULL), (6, NULL), (7, NULL)",
  ];
}

export const OPS_CML = `
node tickets {
  label: "Tickets"
  domain: operations
  connection: ${OPS_CONNECTION}
  table: ops.tickets
  dimension id        { type: number  primary_key: true  hidden: true }
  dimension team      { type: string  description: "Team the ticket is assigned to." }
  dimension region    { type: string }
  dimension status    { type: string }
  dimension opened_at { type: timestamp }
  dimension minutes   { type: number  hidden: true }
  dimension km        { type: number  hidden: true }
  dimension kg        { type: number  hidden: true }
  measure ticket_count { type: count }
  measure open_count   { type: count  filter: \${status} = 'open' }
  measure avg_minutes  { type: avg  sql: \${minutes} }
  measure total_km     { type: sum  sql: \${km} }
  measure total_kg     { type: sum  sql: \${kg} }
  data_key region { dimension: region  attribute: region }
}

node readings {
  label: "Readings"
  domain: operations
  connection: ${OPS_CONNECTION}
  table: ops.readings
  dimension id         { type: number  primary_key: true  hidden: true }
  dimension station    { type: string }
  dimension reading_at { type: timestamp }
  measure avg_temp     { type: avg  sql: \${TABLE}.temp_c }
  measure total_rain   { type: sum  sql: \${TABLE}.rain_mm }
}

node vehicles {
  label: "Vehicles"
  domain: operations
  connection: ${OPS_CONNECTION}
  table: ops.vehicles
  dimension id    { type: number  primary_key: true  hidden: true }
  dimension depot { type: string }
  measure vehicle_count { type: count }
}

reveal support {
  domain: operations
  label: "Support"
  base: tickets
  time: tickets.opened_at
  metric tickets         { label: "Tickets"  unit: count  measure: tickets.ticket_count }
  metric open_tickets    { label: "Open tickets"  unit: count  snapshot: true  measure: tickets.open_count }
  metric resolution_time { label: "Resolution time"  unit: minutes  measure: tickets.avg_minutes }
  metric distance        { label: "Distance"  unit: km  measure: tickets.total_km }
  metric cargo_weight    { label: "Cargo weight"  unit: kg  measure: tickets.total_kg }
}

reveal weather {
  domain: operations
  label: "Weather"
  base: readings
  time: readings.reading_at
  metric temperature { label: "Average temperature"  unit: celsius  measure: readings.avg_temp }
  metric rainfall    { label: "Rainfall"  unit: mm  measure: readings.total_rain }
}

reveal fleet {
  domain: operations
  label: "Fleet"
  base: vehicles
  metric vehicles { label: "Vehicles"  unit: count  measure: vehicles.vehicle_count }
}
`;

/** Writes the rows into a new DuckDB file in the workspace's directory and adds the connection. */
export async function loadOpsDuckDb(services: Services, workspaceId: string): Promise<void> {
  const directory = services.connections.directoryOf(workspaceId);
  await mkdir(directory, { recursive: true });
  const instance = await DuckDBInstance.create(path.join(directory, 'field.duckdb'));
  try {
    const connection = await instance.connect();
    try {
      for (const sql of statements(services.clock.now())) await connection.run(sql);
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
  await services.connections.create(workspaceId, { name: OPS_CONNECTION, engine: 'duckdb', settings: { path: 'field.duckdb' } });
}

/** Writes the rows into the PostgreSQL database at `url` and adds the connection. */
export async function loadOpsPostgres(services: Services, workspaceId: string, url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const sql of statements(services.clock.now())) await client.query(sql);
  } finally {
    await client.end();
  }
  const parsed = new URL(url);
  const settings = { host: parsed.hostname, port: Number(parsed.port), database: parsed.pathname.slice(1), user: parsed.username };
  await services.connections.create(workspaceId, { name: OPS_CONNECTION, engine: 'postgres', settings });
}

/** Deploys the model and gives the luminary every region (the data key's "*"). */
export async function deployOpsModel(services: Services, ws: SeededWorkspace): Promise<void> {
  const lum = ws.members.luminary;
  await services.models.deploy({ workspaceId: ws.id, userId: lum.id, email: lum.email }, 'ops', [{ path: 'ops.cml', content: OPS_CML }]);
  await services.store.db.updateTable('memberships').set({ attributes: JSON.stringify({ region: '*' }) }).where('workspace_id', '=', ws.id).where('user_id', '=', lum.id).execute();
  await services.shared.bump(IDENTITY_GENERATION);
}
