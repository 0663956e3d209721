// POST /api/connections/:id/test reports what the connection's role can do beyond reading (superuser,
// writes, password hashes, server files) with warnings the console shows, checked on real servers with
// real roles: a superuser, a role with INSERT on one table, a role in a file-reading group and a
// minimal SELECT-only role on PostgreSQL; root, a user with INSERT, a user writing through a MariaDB
// role, a user with FILE and a SELECT-only user on MariaDB. Every role and user is unique to the run
// and dropped afterwards.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomHex } from '../src/identity/tokens.js';
import { seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { createTestDatabase, createTestMysqlDatabase, hasService, missingMysqlTimeZones, MYSQL_URL } from './helpers/services.js';

const withPostgres = await hasService('postgres');
const withMysql = await hasService('mysql');
/**
 * Why the MariaDB server cannot convert named time zones, if it cannot (test/helpers/services.ts; with
 * REQUIRE_SERVICES=1 a missing table fails the file instead). Its connection test then says so too, after
 * the privilege warnings: that warning is expected exactly when the tables are missing.
 */
const noMysqlZones = withMysql ? await missingMysqlTimeZones() : undefined;
const zoneWarning = noMysqlZones ? ['time_zone_tables_missing'] : [];
const tag = randomHex(4);

let t: TestApp;
let ws: SeededWorkspace;
let cookie: string;

beforeAll(async () => {
  t = await startTestApp();
  ws = await seedWorkspace(t.services);
  cookie = await signIn(t.app, ws.members.luminary.email);
});
afterAll(() => t.close());

interface TestAnswer {
  ok: boolean;
  engine: string;
  error?: string;
  privileges?: { superuser: boolean | null; can_write: boolean | null; reads_credentials: boolean | null; reads_server_files: boolean | null };
  warnings?: Array<{ code: string; message: string }>;
}

async function testConnection(name: string, engine: string, settings: object, password?: string): Promise<TestAnswer> {
  const headers = { cookie, 'content-type': 'application/json' };
  const created = await t.app.inject({ method: 'POST', url: '/api/connections', headers, payload: { name, engine, settings, ...(password ? { password } : {}) } });
  expect(created.statusCode, created.body).toBe(201);
  const tested = await t.app.inject({ method: 'POST', url: `/api/connections/${created.json().connection.id}/test`, headers });
  expect(tested.statusCode).toBe(200);
  return tested.json();
}

const codes = (answer: TestAnswer) => (answer.warnings ?? []).map((w) => w.code);
const NOTHING_BUT_READ = { superuser: false, can_write: false, reads_credentials: false, reads_server_files: false };

describe.runIf(withPostgres)('PostgreSQL roles', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: pg.Client;
  let settings: { host: string; port: number; database: string };
  const roles = { superuser: `svc_priv_super_${tag}`, writer: `svc_priv_writer_${tag}`, files: `svc_priv_files_${tag}`, reader: `svc_priv_reader_${tag}` };

  beforeAll(async () => {
    database = await createTestDatabase();
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    const url = new URL(database.url);
    settings = { host: url.hostname, port: Number(url.port || 5432), database: url.pathname.slice(1) };
    await admin.query('create table items (id int); create table other (id int)');
    await admin.query(`create role ${roles.superuser} login superuser`);
    await admin.query(`create role ${roles.writer} login; grant select, insert on items to ${roles.writer}; grant select on other to ${roles.writer}`);
    await admin.query(`create role ${roles.files} login; grant select on items to ${roles.files}; grant pg_read_server_files to ${roles.files}`);
    await admin.query(`create role ${roles.reader} login; grant select on items, other to ${roles.reader}`);
  });
  afterAll(async () => {
    await t.services.connections.registry.closeAll();
    await admin?.end();
    await database?.drop();
    const cleanup = new pg.Client({ connectionString: new URL('/postgres', database.url).toString() });
    await cleanup.connect();
    for (const role of Object.values(roles)) await cleanup.query(`drop role if exists ${role}`);
    await cleanup.end();
  });

  it('a superuser: every flag, one warning that says why', async () => {
    const answer = await testConnection('pg-super', 'postgres', { ...settings, user: roles.superuser });
    expect(answer).toMatchObject({ ok: true, privileges: { superuser: true, can_write: true, reads_credentials: true, reads_server_files: true } });
    expect(codes(answer)).toEqual(['superuser']);
    expect(answer.warnings![0]!.message).toMatch(/superuser.*read-only role/i);
  });

  it('a role with INSERT on one table: can write, and the warning names the table', async () => {
    const answer = await testConnection('pg-writer', 'postgres', { ...settings, user: roles.writer });
    expect(answer.privileges).toEqual({ ...NOTHING_BUT_READ, can_write: true });
    expect(codes(answer)).toEqual(['can_write']);
    expect(answer.warnings![0]!.message).toContain('public.items');
    expect(answer.warnings![0]!.message).not.toContain('public.other');
  });

  it('a member of pg_read_server_files: reads server files', async () => {
    const answer = await testConnection('pg-files', 'postgres', { ...settings, user: roles.files });
    expect(answer.privileges).toEqual({ ...NOTHING_BUT_READ, reads_server_files: true });
    expect(codes(answer)).toEqual(['reads_server_files']);
    expect(answer.warnings![0]!.message).toContain('pg_read_server_files');
  });

  it('a SELECT-only role: nothing to warn about', async () => {
    const answer = await testConnection('pg-reader', 'postgres', { ...settings, user: roles.reader });
    expect(answer).toEqual({ ok: true, engine: 'postgres', duration_ms: expect.any(Number), instance: t.services.config.instanceName, privileges: NOTHING_BUT_READ, warnings: [] });
  });
});

describe.runIf(withMysql)('MariaDB users', () => {
  let database: Awaited<ReturnType<typeof createTestMysqlDatabase>>;
  let admin: mysql.Connection;
  let server: { host: string; port: number; database: string };
  const users = { writer: `svc_w_${tag}`, roled: `svc_r_${tag}`, files: `svc_f_${tag}`, reader: `svc_ro_${tag}` };
  const role = `svc_role_${tag}`;
  const password = `pw-${tag}`;

  beforeAll(async () => {
    database = await createTestMysqlDatabase();
    admin = await mysql.createConnection(MYSQL_URL);
    const db = database.database;
    await admin.query(`create table ${db}.items (id int)`);
    await admin.query(`create table ${db}.other (id int)`);
    for (const user of Object.values(users)) await admin.query(`create user '${user}'@'%' identified by '${password}'`);
    await admin.query(`grant select, insert on ${db}.items to '${users.writer}'@'%'`);
    await admin.query(`grant select on ${db}.other to '${users.writer}'@'%'`);
    await admin.query(`create role ${role}`);
    await admin.query(`grant update on ${db}.* to ${role}`);
    await admin.query(`grant select on ${db}.* to '${users.roled}'@'%'`);
    await admin.query(`grant ${role} to '${users.roled}'@'%'`);
    await admin.query(`set default role ${role} for '${users.roled}'@'%'`);
    await admin.query(`grant select on ${db}.* to '${users.files}'@'%'`);
    await admin.query(`grant file on *.* to '${users.files}'@'%'`);
    await admin.query(`grant select on ${db}.* to '${users.reader}'@'%'`);
    const url = new URL(MYSQL_URL);
    server = { host: url.hostname, port: Number(url.port || 3306), database: db };
  });
  afterAll(async () => {
    await t.services.connections.registry.closeAll();
    for (const user of Object.values(users)) await admin?.query(`drop user if exists '${user}'@'%'`);
    await admin?.query(`drop role if exists ${role}`);
    await admin?.end();
    await database?.drop();
  });

  it('root: every flag, one warning that says why', async () => {
    const url = new URL(MYSQL_URL);
    const answer = await testConnection('my-root', 'mysql', { ...server, user: decodeURIComponent(url.username) }, url.password ? decodeURIComponent(url.password) : undefined);
    expect(answer).toMatchObject({ ok: true, privileges: { superuser: true, can_write: true, reads_credentials: true, reads_server_files: true } });
    expect(codes(answer)).toEqual(['superuser', ...zoneWarning]);
    expect(answer.warnings![0]!.message).toMatch(/SUPER.*read-only/);
  });

  it('a user with INSERT on one table: can write, and the warning names the table', async () => {
    const answer = await testConnection('my-writer', 'mysql', { ...server, user: users.writer }, password);
    expect(answer.privileges).toEqual({ ...NOTHING_BUT_READ, can_write: true });
    expect(codes(answer)).toEqual(['can_write', ...zoneWarning]);
    expect(answer.warnings![0]!.message).toContain(`INSERT on ${server.database}.items`);
    expect(answer.warnings![0]!.message).not.toContain('other');
  });

  it('a user writing through its default role: can write', async () => {
    const answer = await testConnection('my-roled', 'mysql', { ...server, user: users.roled }, password);
    expect(answer.privileges).toEqual({ ...NOTHING_BUT_READ, can_write: true });
    expect(answer.warnings![0]!.message).toContain(`UPDATE on ${server.database}.*`);
  });

  it('a user with FILE: reads server files', async () => {
    const answer = await testConnection('my-files', 'mysql', { ...server, user: users.files }, password);
    expect(answer.privileges).toEqual({ ...NOTHING_BUT_READ, reads_server_files: true });
    expect(codes(answer)).toEqual(['reads_server_files', ...zoneWarning]);
  });

  it('a SELECT-only user: nothing to warn about (the server has its time zone tables)', async (ctx) => {
    if (noMysqlZones) ctx.skip(noMysqlZones);
    const answer = await testConnection('my-reader', 'mysql', { ...server, user: users.reader }, password);
    expect(answer).toEqual({ ok: true, engine: 'mysql', duration_ms: expect.any(Number), instance: t.services.config.instanceName, privileges: NOTHING_BUT_READ, warnings: [] });
  });
});

describe('DuckDB', () => {
  it('is opened read-only by the service: nothing to warn about', async () => {
    const directory = t.services.connections.directoryOf(ws.id);
    mkdirSync(directory, { recursive: true });
    const instance = await DuckDBInstance.create(path.join(directory, 'present.duckdb'));
    instance.closeSync();
    const answer = await testConnection('duck', 'duckdb', { path: 'present.duckdb' });
    expect(answer).toEqual({ ok: true, engine: 'duckdb', duration_ms: expect.any(Number), instance: t.services.config.instanceName, privileges: NOTHING_BUT_READ, warnings: [] });
    const absent = await testConnection('duck-absent', 'duckdb', { path: 'absent.duckdb' });
    expect(absent).toEqual({
      ok: false,
      engine: 'duckdb',
      instance: t.services.config.instanceName,
      missing_file: 'absent.duckdb',
      error: `DuckDB: cannot connect to the warehouse (there is no file "absent.duckdb" in this workspace's directory on instance "${t.services.config.instanceName}")`,
    });
  });
});
