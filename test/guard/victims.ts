// The victim schema the guard's corpus is written against, on each engine, and the scratch directory
// its file attacks aim at. Shared by the guard's engine tests and the HTTP replay of the corpus.
import { chmodSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CUSTOMERS = [
  [1, 'Ada', 'ada@example.com', 'UK'],
  [2, 'Grace', 'grace@example.com', 'US'],
  [3, 'Edsger', 'edsger@example.com', 'NL'],
] as const;
const ORDERS = [
  [1, 1, '120.50', 'paid', '2024-01-05 10:00:00'],
  [2, 1, '30.00', 'open', '2024-02-11 12:30:00'],
  [3, 2, '75.25', 'paid', '2024-02-20 08:15:00'],
  [4, 3, '10.00', 'open', '2024-03-01 17:45:00'],
] as const;

export function customersValues(): string {
  return CUSTOMERS.map(([id, name, email, country]) => `(${id}, '${name}', '${email}', '${country}')`).join(', ');
}

export function ordersValues(): string {
  return ORDERS.map(([id, customer, total, status, at]) => `(${id}, ${customer}, ${total}, '${status}', '${at}')`).join(', ');
}

// User tables named like the credential catalogs the guard refuses, or holding a password column:
// reading them is ordinary and must stay allowed.
const LOOKALIKES = {
  postgres: [
    'create table accounts (id int primary key, login text, password_hash text)',
    "insert into accounts values (1, 'ada', 'not-a-real-hash')",
    'create schema app',
    'create table app.pg_shadow (id int primary key, note text)',
    "insert into app.pg_shadow values (1, 'a user table')",
  ],
  mysql: [
    'CREATE TABLE user (id INT PRIMARY KEY, name VARCHAR(50), password_hash VARCHAR(100))',
    "INSERT INTO user VALUES (1, 'ada', 'not-a-real-hash')",
    'CREATE TABLE servers (id INT PRIMARY KEY, host VARCHAR(50))',
    "INSERT INTO servers VALUES (1, 'db.example.com')",
  ],
  duckdb: [
    'create table settings (name varchar, value varchar)',
    "insert into settings values ('theme', 'dark')",
    'create schema app',
    'create table app.pg_settings (name varchar, setting varchar)',
    "insert into app.pg_settings values ('theme', 'dark')",
  ],
};

/** Statements that create and fill the victim schema (run by an admin connection, not the guard). */
export function victimStatements(engine: 'postgres' | 'mysql' | 'duckdb', options: { sequence?: boolean } = {}): string[] {
  const ddl = {
    postgres: [
      'create table customers (id int primary key, name text, email text, country text)',
      'create table orders (id int primary key, customer_id int, total numeric(10,2), status text, created_at timestamp)',
    ],
    mysql: [
      'CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(50), email VARCHAR(100), country VARCHAR(2))',
      'CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT, total DECIMAL(10,2), status VARCHAR(10), created_at DATETIME)',
    ],
    duckdb: [
      'create table customers (id integer primary key, name varchar, email varchar, country varchar)',
      'create table orders (id integer primary key, customer_id integer, total decimal(10,2), status varchar, created_at timestamp)',
    ],
  }[engine];
  return [
    ...ddl,
    ...(options.sequence === false ? [] : ['create sequence order_seq']),
    `insert into customers values ${customersValues()}`,
    `insert into orders values ${ordersValues()}`,
    ...LOOKALIKES[engine],
  ];
}

/** A fresh scratch directory the database server may write into (it runs as another OS user). */
export function scratchDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-guard-'));
  chmodSync(dir, 0o777);
  return dir;
}

export function listFiles(dir: string): string {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .sort()
    .map((name) => `${name}:${statSync(join(dir, name)).size}`)
    .join(',');
}
