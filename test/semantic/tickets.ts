// A small support-desk dataset full of NULLs (no channel, no priority, no time, no minutes), loaded into
// embedded DuckDB and, when their servers answer, a fresh PostgreSQL database and a fresh MariaDB
// database, with its CML model: what negated filters and ratio measures are tested on, since the demo
// data has no NULL anywhere. Tickets have replies (one-to-many), so ratios are also checked across a
// join that repeats tickets. Opened before the file's tests and dropped after them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import { compileModel } from '../../src/core/cml/index.js';
import { createRng } from '../../src/core/demo/prng.js';
import type { SemanticModel } from '../../src/core/semantic/model.js';
import { openWarehouse, type Warehouse } from '../../src/core/warehouse/index.js';
import { createTestDatabase, createTestMysqlDatabase } from '../helpers/services.js';
import { AVAILABLE, type Engine } from './demo-engines.js';

/** The instant filters relative to now count from. */
export const TICKETS_NOW = new Date('2025-06-18T10:00:00Z');

export const TICKETS_CML = (schema: string) => `
node tickets {
  connection: warehouse
  table: ${schema}.tickets
  dimension id        { type: number  primary_key: true }
  dimension channel   { type: string }
  dimension priority  { type: number }
  dimension opened_at { type: timestamp }
  dimension minutes   { type: number }
  dimension escalated { type: boolean }
  dimension region    { type: string }
  measure ticket_count  { type: count }
  measure urgent_count  { type: count  filter: \${priority} >= 4 }
  measure total_minutes { type: sum  unit: minutes  sql: \${minutes} }
  measure urgent_share  { type: ratio  numerator: urgent_count  denominator: ticket_count  format: percent }
  # Zero urgent tickets in some groups, no minutes at all in others: NULL, never an error.
  measure minutes_per_urgent_ticket { type: ratio  numerator: total_minutes  denominator: urgent_count }
  join replies { relationship: one_to_many  on: \${tickets.id} = \${replies.ticket_id} }
  data_key region { dimension: region  attribute: region }
}

node replies {
  connection: warehouse
  table: ${schema}.replies
  dimension id        { type: number  primary_key: true }
  dimension ticket_id { type: number  hidden: true }
  dimension words     { type: number }
  measure reply_count     { type: count }
  measure total_words     { type: sum  sql: \${words} }
  measure words_per_reply { type: ratio  numerator: total_words  denominator: reply_count }
}
`;

export interface Ticket {
  readonly id: number;
  readonly channel: string | null;
  readonly priority: number | null;
  /** `YYYY-MM-DD HH:mm:ss`, UTC wall time. */
  readonly openedAt: string | null;
  readonly minutes: number | null;
  readonly escalated: boolean | null;
  readonly region: 'north' | 'south';
}

export interface Reply {
  readonly id: number;
  readonly ticketId: number;
  readonly words: number | null;
}

/** LIKE's special characters and the escape character are in the values, as users' data has them. */
export const CHANNELS = ['web', 'email', 'phone', 'web_form', 'chat 100%', 'Web!'] as const;

export function generateTickets(): { tickets: Ticket[]; replies: Reply[] } {
  const rng = createRng(4242, 0);
  const pick = <T>(values: readonly T[]) => values[Math.floor(rng() * values.length)]!;
  const maybe = <T>(value: T, nulls = 0.2): T | null => (rng() < nulls ? null : value);
  const tickets: Ticket[] = [];
  const replies: Reply[] = [];
  const start = Date.UTC(2024, 0, 1);
  const span = Date.UTC(2025, 5, 20) - start;
  for (let id = 1; id <= 240; id++) {
    const channel = maybe(pick(CHANNELS));
    const opened = new Date(start + Math.floor(rng() * span / 1000) * 1000).toISOString().slice(0, 19).replace('T', ' ');
    tickets.push({
      id,
      channel,
      priority: maybe(1 + Math.floor(rng() * 5)),
      openedAt: maybe(opened),
      // Phone tickets never record minutes: their group's sum is NULL.
      minutes: channel === 'phone' ? null : maybe(Math.round(rng() * 30_000) / 100),
      escalated: maybe(rng() < 0.3),
      region: rng() < 0.5 ? 'north' : 'south',
    });
    const count = Math.floor(rng() * 4);
    for (let i = 0; i < count; i++) replies.push({ id: replies.length + 1, ticketId: id, words: maybe(Math.floor(rng() * 200), 0.15) });
  }
  return { tickets, replies };
}

type Ddl = { timestamp: string; suffix: string };
const DDL: Record<Engine, Ddl> = {
  duckdb: { timestamp: 'TIMESTAMP', suffix: '' },
  postgres: { timestamp: 'TIMESTAMP', suffix: '' },
  // Binary collation: MariaDB's default would make 'Web!' equal 'web!', which no other engine does.
  mysql: { timestamp: 'DATETIME', suffix: ' DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin' },
};

const literal = (value: string | number | boolean | null) => (value === null ? 'NULL' : typeof value === 'string' ? `'${value}'` : String(value).toUpperCase());

/** The statements that create and fill the two tables in `schema` (no value holds a quote or a backslash). */
export function ticketStatements(engine: Engine, schema: string): string[] {
  const { tickets, replies } = generateTickets();
  const { timestamp, suffix } = DDL[engine];
  const ticketRows = tickets.map((t) => `(${[t.id, t.channel, t.priority, t.openedAt, t.minutes, t.escalated, t.region].map(literal).join(', ')})`);
  const replyRows = replies.map((r) => `(${[r.id, r.ticketId, r.words].map(literal).join(', ')})`);
  return [
    `CREATE TABLE ${schema}.tickets (id INTEGER PRIMARY KEY, channel VARCHAR(40), priority INTEGER, opened_at ${timestamp} NULL, minutes DECIMAL(10,2), escalated BOOLEAN, region VARCHAR(10) NOT NULL)${suffix}`,
    `CREATE TABLE ${schema}.replies (id INTEGER PRIMARY KEY, ticket_id INTEGER NOT NULL, words INTEGER)${suffix}`,
    `INSERT INTO ${schema}.tickets VALUES ${ticketRows.join(', ')}`,
    `INSERT INTO ${schema}.replies VALUES ${replyRows.join(', ')}`,
  ];
}

export interface TicketEngine {
  readonly warehouse: Warehouse;
  readonly model: SemanticModel;
}

function ticketModel(schema: string): SemanticModel {
  const result = compileModel([{ path: 'tickets.cml', content: TICKETS_CML(schema) }]);
  expect(result.diagnostics).toEqual([]);
  return result.model!;
}

/** The dataset on every engine present, filled in before the file's tests run. */
export function ticketEngines(tag: string): Map<Engine, TicketEngine> {
  const engines = new Map<Engine, TicketEngine>();
  const cleanups: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), `svc-${tag}-`));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'tickets.duckdb');
    const instance = await DuckDBInstance.create(file);
    const connection = await instance.connect();
    for (const statement of ['CREATE SCHEMA support', ...ticketStatements('duckdb', 'support')]) await connection.run(statement);
    connection.closeSync();
    instance.closeSync();
    engines.set('duckdb', { warehouse: openWarehouse({ engine: 'duckdb', path: file }), model: ticketModel('support') });

    if (AVAILABLE.postgres) {
      const db = await createTestDatabase();
      cleanups.push(() => db.drop());
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      for (const statement of ['CREATE SCHEMA support', ...ticketStatements('postgres', 'support')]) await client.query(statement);
      await client.end();
      const url = new URL(db.url);
      const warehouse = openWarehouse({ engine: 'postgres', host: url.hostname, port: Number(url.port), database: url.pathname.slice(1), user: url.username });
      engines.set('postgres', { warehouse, model: ticketModel('support') });
    }

    if (AVAILABLE.mysql) {
      // A database is MariaDB's schema: the model's tables are <that database>.tickets.
      const db = await createTestMysqlDatabase();
      cleanups.push(() => db.drop());
      const client = await mysql.createConnection(db.url);
      for (const statement of ticketStatements('mysql', db.database)) await client.query(statement);
      await client.end();
      const url = new URL(db.url);
      const warehouse = openWarehouse({
        engine: 'mysql',
        host: url.hostname,
        port: Number(url.port || 3306),
        database: db.database,
        user: decodeURIComponent(url.username),
        ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
      });
      engines.set('mysql', { warehouse, model: ticketModel(db.database) });
    }
  }, 120_000);
  afterAll(async () => {
    for (const { warehouse } of engines.values()) await warehouse.close();
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  return engines;
}
